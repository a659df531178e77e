package dev.weft.micronaut;

import io.micronaut.context.annotation.Property;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code micronaut.server.http-version: 2.0}, a {@code @ServerWebSocket} also opens as an RFC 8441 extended
 * CONNECT stream (Python {@code h2} + {@code wsproto} over h2c).
 */
@MicronautTest
@Property(name = "micronaut.server.http-version", value = "2.0")
class WeftServesServerWebSocketsOverHttp2Test {

    @Inject
    EmbeddedServer server;

    @Test
    void extendedConnectOpensTheSessionWithItsPathVariable() throws Exception {
        Map<String, Object> report = PythonWebSocketClient.run("ws://localhost:" + server.getPort() + "/echo/h2",
                true, "[{\"receive\": 1}, {\"text\": \"hi\"}, {\"receive\": 1}, {\"text\": \"close:4004\"},"
                        + " {\"await_close\": true}]");
        assertThat(report.get("http_version")).isEqualTo("HTTP/2");
        assertThat(report.get("received")).isEqualTo(List.of("joined h2", "h2:hi"));
        assertThat(((Number) report.get("close_code")).intValue()).isEqualTo(4004);
    }
}
