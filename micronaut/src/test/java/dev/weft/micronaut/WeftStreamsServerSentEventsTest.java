package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.micronaut.app.Gate;
import dev.weft.micronaut.app.Greeting;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.sse.SseClient;
import io.micronaut.http.sse.Event;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** {@code Publisher<Event>} routes stream server-sent events through Weft as they are produced. */
@MicronautTest
class WeftStreamsServerSentEventsTest {

    @Inject
    EmbeddedServer server;

    @Inject
    Gate gate;

    @Inject
    @Client("/")
    SseClient sse;

    @Test
    void micronautsSseClientReceivesEveryEventWithItsNameAndId() {
        List<Event<Greeting>> events = Flux.from(sse.eventStream("/sample/events", Greeting.class))
                .collectList().block(Duration.ofSeconds(30));
        assertThat(events).extracting(Event::getName).containsExactly("tick", "tick", "tick");
        assertThat(events).extracting(Event::getId).containsExactly("1", "2", "3");
        assertThat(events).extracting(e -> e.getData().count()).containsExactly(1, 2, 3);
    }

    @Test
    void theFirstEventReachesTheClientBeforeTheRouteProducesTheNext() throws Exception {
        gate.reset();
        HttpRequest request = HttpRequest.newBuilder(server.getURI().resolve("/sample/gated-events"))
                .header("Accept", "text/event-stream").build();
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<java.io.InputStream> response = client.send(request,
                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("text/event-stream");
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(),
                    StandardCharsets.UTF_8))) {
                // the route is held at the gate after the first event: if Weft buffered it, this read would hang
                assertThat(event(lines)).containsExactly("data: first");
                assertThat(gate.awaitEntered()).isTrue();
                gate.release();
                assertThat(event(lines)).containsExactly("data: second");
                assertThat(event(lines)).containsExactly("data: third");
                assertThat(lines.readLine()).isNull();
            }
        }
    }

    /** The lines of the next event, up to the blank line that ends it. */
    private static List<String> event(BufferedReader lines) throws java.io.IOException {
        List<String> event = new ArrayList<>();
        for (String line = lines.readLine(); line != null && !line.isEmpty(); line = lines.readLine()) {
            event.add(line);
        }
        return event;
    }
}
