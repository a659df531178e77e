package dev.weft.websocket.jakarta;

import dev.weft.httpserver.testing.RawWsClient;
import jakarta.websocket.server.ServerEndpointConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Pong handlers ({@code @OnMessage PongMessage}, {@code MessageHandler.Whole<PongMessage>}) receive an unsolicited
 * pong and the pong answering the endpoint's own {@code sendPing}, each with its payload.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PongMessageHandlerTest {

    private JakartaServers servers;

    @BeforeEach
    void start() throws Exception {
        PongEndpoints.EVENTS.clear();
        servers = JakartaServers.start(PongEndpoints.Annotated.class);
        servers.container.addEndpoint(ServerEndpointConfig.Builder.create(PongEndpoints.Handler.class,
                "/pong/handler").build());
    }

    @AfterEach
    void stop() {
        servers.close();
    }

    @ParameterizedTest
    @CsvSource({"/pong/annotated, annotated", "/pong/handler, handler"})
    void anUnsolicitedPongReachesTheHandlerWithItsPayload(String path, String kind) throws Exception {
        try (RawWsClient c = servers.raw(path, null)) {
            c.send(true, 0xA, new byte[] {1, 2, (byte) 0xff});
            assertEquals(kind + ":0102ff", PongEndpoints.EVENTS.next());
            c.send(true, 0xA, new byte[0]);
            assertEquals(kind + ":", PongEndpoints.EVENTS.next());
        }
    }

    @ParameterizedTest
    @CsvSource({"/pong/annotated, annotated", "/pong/handler, handler"})
    void thePongAnsweringSendPingReachesTheHandlerWithThePingsPayload(String path, String kind) throws Exception {
        try (RawWsClient c = servers.raw(path, null)) {
            c.sendText("ping:are you there");
            RawWsClient.Frame ping = c.read();
            assertEquals(0x9, ping.opcode());
            assertArrayEquals("are you there".getBytes(StandardCharsets.UTF_8), ping.payload());
            c.send(true, 0xA, ping.payload());
            assertEquals(kind + ":" + java.util.HexFormat.of().formatHex(ping.payload()), PongEndpoints.EVENTS.next());
        }
    }
}
