package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.micronaut.app.ServerEvents;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.Environment;
import io.micronaut.runtime.server.EmbeddedServer;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * The server's lifecycle: {@code refresh()} restarts it (publishing shutdown and startup events) and it serves
 * again; stopping it publishes {@code ServerShutdownEvent} and stops the application.
 */
class WeftRefreshesAndStopsWithItsApplicationTest {

    @Test
    void refreshRestartsTheServerAndStopEndsTheApplication() throws Exception {
        ApplicationContext context = ApplicationContext.run(EmbeddedServer.class, Map.of(), Environment.TEST)
                .getApplicationContext();
        EmbeddedServer server = context.getBean(EmbeddedServer.class);
        ServerEvents events = context.getBean(ServerEvents.class);
        assertThat(events.startups).hasValue(1);
        try (HttpClient client = HttpClient.newHttpClient()) {
            assertThat(hello(client, server)).isEqualTo("Hello from Weft");
            server.refresh();
            assertThat(server.isRunning()).isTrue();
            assertThat(events.shutdowns).hasValue(1);
            assertThat(events.startups).hasValue(2);
            assertThat(hello(client, server)).isEqualTo("Hello from Weft");
        }
        server.stop();
        assertThat(server.isRunning()).isFalse();
        assertThat(context.isRunning()).isFalse();
        assertThat(events.shutdowns).hasValue(2);
    }

    private static String hello(HttpClient client, EmbeddedServer server) throws Exception {
        return client.send(HttpRequest.newBuilder(server.getURI().resolve("/sample/hello")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
