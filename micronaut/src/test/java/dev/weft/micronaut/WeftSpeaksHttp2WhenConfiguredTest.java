package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** {@code micronaut.server.http-version: 2.0} serves HTTP/2 in cleartext (h2c with prior knowledge). */
@MicronautTest
@Property(name = "micronaut.server.http-version", value = "2.0")
class WeftSpeaksHttp2WhenConfiguredTest {

    @Inject
    EmbeddedServer server;

    @Test
    void curlWithPriorKnowledgeGetsAnHttp2Answer() throws Exception {
        Process curl = new ProcessBuilder("curl", "-s", "--http2-prior-knowledge", "-w", "\n%{http_version}",
                server.getURI().resolve("/sample/hello").toString()).redirectErrorStream(true).start();
        String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(curl.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(out).isEqualTo("Hello from Weft\n2");
    }
}
