package dev.weft.mvcdemo;

import dev.weft.spring.boot.servlet.WeftServletWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo's JSON API and its server-sent-events stream, through Spring's {@code RestClient}. */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MvcDemoApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    ServletWebServerApplicationContext context;

    private DemoClient client;

    @BeforeEach
    void connect() {
        client = new DemoClient(port);
    }

    @AfterEach
    void disconnect() {
        client.close();
    }

    @Test
    void theDemoRunsOnWeftsServletContainer() {
        assertThat(context.getWebServer()).isInstanceOf(WeftServletWebServer.class);
        assertThat(context.getWebServer().getPort()).isEqualTo(port);
    }

    @Test
    void infoNamesTheContainerAndTheProtocolWithoutCreatingASession() {
        ResponseEntity<String> response = client.get("/api/info");

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        assertThat(response.getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_JSON);
        assertThat(response.getHeaders().getFirst("Server")).isEqualTo("Weft");
        JsonNode info = JSON.readTree(response.getBody());
        assertThat(info.get("server").asString()).startsWith("Weft");
        assertThat(info.get("protocol").asString()).isEqualTo("HTTP/1.1");
        assertThat(info.get("secure").asBoolean()).isFalse();
        assertThat(info.get("counter").asInt()).isZero();
        assertThat(client.sessionId()).isNull();
    }

    @Test
    void aNoteIsEchoedWithItsLengthAndWordCount() {
        ResponseEntity<String> response = client.rest().post().uri("/api/notes")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"text\":\"caf\u00e9 on weft\"}")
                .retrieve().toEntity(String.class);

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
        JsonNode note = JSON.readTree(response.getBody());
        assertThat(note.get("text").asString()).isEqualTo("caf\u00e9 on weft");
        assertThat(note.get("length").asInt()).isEqualTo(12);
        assertThat(note.get("words").asInt()).isEqualTo(3);
    }

    @Test
    void aMalformedNoteIsAnswered400InJson() {
        ResponseEntity<String> response = client.rest().post().uri("/api/notes")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"text\":")
                .retrieve().toEntity(String.class);

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(JSON.readTree(response.getBody()).get("status").asInt()).isEqualTo(400);
    }

    @Test
    void aNoteInAnotherMediaTypeIsAnswered415() {
        ResponseEntity<String> response = client.rest().post().uri("/api/notes")
                .contentType(MediaType.TEXT_PLAIN)
                .body("just text")
                .retrieve().toEntity(String.class);

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE);
    }

    @Test
    void eventsStreamTheRequestedTicksThenEnd() {
        List<String> events = client.rest().get().uri("/api/events?count=3&intervalMs=20")
                .accept(MediaType.TEXT_EVENT_STREAM)
                .exchange((request, response) -> {
                    assertThat(response.getStatusCode()).isEqualTo(HttpStatus.OK);
                    assertThat(response.getHeaders().getContentType().isCompatibleWith(MediaType.TEXT_EVENT_STREAM))
                            .isTrue();
                    List<String> lines = new ArrayList<>();
                    try (BufferedReader in = new BufferedReader(
                            new InputStreamReader(response.getBody(), StandardCharsets.UTF_8))) {
                        for (String line; (line = in.readLine()) != null; ) { // until the stream ends
                            lines.add(line);
                        }
                    }
                    return lines;
                });

        assertThat(events.stream().filter(line -> line.startsWith("event:")).map(line -> line.substring(6).strip()))
                .containsExactly("tick", "tick", "tick");
        assertThat(events.stream().filter(line -> line.startsWith("id:")).map(line -> line.substring(3).strip()))
                .containsExactly("1", "2", "3");
        List<JsonNode> data = events.stream().filter(line -> line.startsWith("data:"))
                .map(line -> JSON.readTree(line.substring(5))).toList();
        assertThat(data).extracting(tick -> tick.get("n").asInt()).containsExactly(1, 2, 3);
    }
}
