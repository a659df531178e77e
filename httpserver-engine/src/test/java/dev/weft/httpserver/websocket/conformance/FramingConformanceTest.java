package dev.weft.httpserver.websocket.conformance;

import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.RawWsClient;
import dev.weft.httpserver.testing.WebSocketTestServers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RFC 6455 §5 framing rules on the wire, after Autobahn's case groups 1 (payload lengths), 2 (pings),
 * 3 (reserved bits), 4 (opcodes), 5 (fragmentation) and 9 (limits: {@code 1009}), plus masking and length
 * encoding.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
public class FramingConformanceTest extends EchoServerSuite {

    /** Limits for the 1009 cases: frames of at most 600 bytes, messages of at most 1000. */
    private static final WebSocketConfig LIMITED = WebSocketConfig.builder().compression(false).maxFrameSize(600)
            .maxMessageSize(1000).build();

    private WebSocketTestServers.EchoServer server;

    @BeforeEach
    void start() throws IOException {
        server = startEcho(WebSocketConfig.builder().compression(false).build());
    }

    private RawWsClient open() throws IOException {
        return RawWsClient.openEcho(server.port(), null);
    }

    /** A session on a server under {@link #LIMITED}. */
    private RawWsClient openLimited() throws IOException {
        return RawWsClient.openEcho(startEcho(LIMITED).port(), null);
    }

    /** The server fails the session with {@code code} and then ends the TCP connection itself. */
    private static void assertFailsWith(RawWsClient c, int code) throws IOException {
        RawWsClient.Frame close = c.readClose();
        assertEquals(code, close.closeCode(), "close code, reason: " + close.text());
        c.sendClose(code);
        assertTrue(c.closedByServer(5000), "server did not close the connection");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 125, 126, 127, 128, 65535, 65536, 200_000})
    void textOfEveryLengthEncodingIsEchoedInOneUnmaskedFrame(int length) throws IOException {
        byte[] text = new byte[length];
        Arrays.fill(text, (byte) '*');
        try (RawWsClient c = open()) {
            c.send(true, 0x1, text);
            RawWsClient.Frame f = c.read();
            assertEquals(0x1, f.opcode());
            assertTrue(f.fin());
            assertFalse(f.masked(), "§5.1: a server MUST NOT mask");
            assertEquals(0, f.rsv());
            assertArrayEquals(text, f.payload());
        }
    }

    @Test
    void unmaskedClientFrameClosesWith1002() throws IOException {
        try (RawWsClient c = open()) {
            c.send(true, 0, 0x1, "hi".getBytes(StandardCharsets.UTF_8), false);
            assertFailsWith(c, 1002);
        }
    }

    @Test
    void pingIsAnsweredWithPongCarryingItsPayload() throws IOException {
        byte[] payload = new byte[125];
        Arrays.fill(payload, (byte) 0xfe);
        try (RawWsClient c = open()) {
            c.send(true, 0x9, payload);
            RawWsClient.Frame pong = c.read();
            assertEquals(0xA, pong.opcode());
            assertArrayEquals(payload, pong.payload());
            c.send(true, 0xA, new byte[] {1}); // unsolicited pong: ignored (§5.5.3)
            c.sendText("after");
            assertEquals("after", c.read().text());
        }
    }

    @Test
    void pingLongerThan125BytesClosesWith1002() throws IOException {
        try (RawWsClient c = open()) {
            c.send(true, 0x9, new byte[126]);
            assertFailsWith(c, 1002);
        }
    }

    @Test
    void fragmentedPingClosesWith1002() throws IOException {
        try (RawWsClient c = open()) {
            c.send(false, 0x9, new byte[] {1});
            assertFailsWith(c, 1002);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7})
    void reservedBitsWithoutExtensionCloseWith1002(int rsv) throws IOException {
        try (RawWsClient c = open()) {
            c.send(true, rsv, 0x1, "x".getBytes(StandardCharsets.UTF_8), true);
            assertFailsWith(c, 1002);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF})
    void reservedOpcodesCloseWith1002(int opcode) throws IOException {
        try (RawWsClient c = open()) {
            c.send(true, opcode, new byte[] {1});
            assertFailsWith(c, 1002);
        }
    }

    @Test
    void fragmentedTextWithPingsBetweenFragmentsArrivesWhole() throws IOException {
        try (RawWsClient c = open()) {
            c.send(false, 0x1, "frag".getBytes(StandardCharsets.UTF_8));
            c.send(true, 0x9, "p1".getBytes(StandardCharsets.UTF_8));
            c.send(false, 0x0, "men".getBytes(StandardCharsets.UTF_8));
            c.send(true, 0x9, "p2".getBytes(StandardCharsets.UTF_8));
            c.send(true, 0x0, "ted".getBytes(StandardCharsets.UTF_8));
            assertEquals("p1", c.read().text());
            assertEquals("p2", c.read().text());
            RawWsClient.Frame f = c.read();
            assertEquals(0x1, f.opcode());
            assertEquals("fragmented", f.text());
        }
    }

    @Test
    void emptyFragmentsMakeAnEmptyMessage() throws IOException {
        try (RawWsClient c = open()) {
            c.send(false, 0x1, new byte[0]);
            c.send(false, 0x0, new byte[0]);
            c.send(true, 0x0, new byte[0]);
            assertEquals("", c.read().text());
        }
    }

    @Test
    void continuationWithoutMessageClosesWith1002() throws IOException {
        try (RawWsClient c = open()) {
            c.send(true, 0x0, "x".getBytes(StandardCharsets.UTF_8));
            assertFailsWith(c, 1002);
        }
    }

    @Test
    void newMessageInsideFragmentedMessageClosesWith1002() throws IOException {
        try (RawWsClient c = open()) {
            c.send(false, 0x1, "a".getBytes(StandardCharsets.UTF_8));
            c.send(true, 0x1, "b".getBytes(StandardCharsets.UTF_8));
            assertFailsWith(c, 1002);
        }
    }

    @Test
    void lengthNotMinimallyEncodedClosesWith1002() throws IOException {
        try (RawWsClient c = open()) {
            // 5 bytes announced with the 16-bit form
            c.sendRaw(new byte[] {(byte) 0x81, (byte) (0x80 | 126), 0, 5, 0, 0, 0, 0, 'h', 'e', 'l', 'l', 'o'});
            assertFailsWith(c, 1002);
        }
    }

    @Test
    void sixtyFourBitLengthWithTopBitSetClosesWith1002() throws IOException {
        try (RawWsClient c = open()) {
            c.sendRaw(new byte[] {(byte) 0x82, (byte) (0x80 | 127), (byte) 0x80, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0});
            assertFailsWith(c, 1002);
        }
    }

    @Test
    void frameArrivingByteByByteIsAssembled() throws IOException {
        byte[] frame = RawWsClient.frame(true, 0, 0x1, "slowly".getBytes(StandardCharsets.UTF_8), true);
        try (RawWsClient c = open()) {
            for (byte b : frame) {
                c.sendRaw(new byte[] {b});
            }
            assertEquals("slowly", c.read().text());
        }
    }

    @Test
    void binaryIsEchoedAsBinary() throws IOException {
        byte[] data = {0, (byte) 0xff, 0x7f, (byte) 0x80};
        try (RawWsClient c = open()) {
            c.send(true, 0x2, data);
            RawWsClient.Frame f = c.read();
            assertEquals(0x2, f.opcode());
            assertArrayEquals(data, f.payload());
        }
    }

    @Test
    void binaryInFragmentsWithAPingBetweenIsEchoedWhole() throws IOException {
        try (RawWsClient c = open()) {
            c.send(false, 0x2, new byte[] {1, 2});
            c.send(true, 0x9, new byte[] {9});
            c.send(false, 0x0, new byte[0]);
            c.send(true, 0x0, new byte[] {3, (byte) 0xff});
            assertArrayEquals(new byte[] {9}, c.read().payload());
            RawWsClient.Frame f = c.read();
            assertEquals(0x2, f.opcode());
            assertArrayEquals(new byte[] {1, 2, 3, (byte) 0xff}, f.payload());
        }
    }

    @Test
    void tenPingsSentAtOnceAreEachAnsweredInOrder() throws IOException {
        java.io.ByteArrayOutputStream pings = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < 10; i++) {
            pings.writeBytes(RawWsClient.frame(true, 0, 0x9, ("ping " + i).getBytes(StandardCharsets.UTF_8), true));
        }
        try (RawWsClient c = open()) {
            c.sendRaw(pings.toByteArray());
            for (int i = 0; i < 10; i++) {
                RawWsClient.Frame pong = c.read();
                assertEquals(0xA, pong.opcode());
                assertEquals("ping " + i, pong.text());
            }
        }
    }

    @Test
    void frameLargerThanMaxFrameSizeClosesWith1009() throws Exception {
        try (RawWsClient c = openLimited()) {
            c.send(true, 0x2, new byte[601]);
            assertFailsWith(c, 1009);
        }
        assertEquals("close:1009", events.close());
    }

    @Test
    void fragmentedMessageLargerThanMaxMessageSizeClosesWith1009() throws Exception {
        try (RawWsClient c = openLimited()) {
            c.send(false, 0x1, new byte[500]);
            c.send(false, 0x0, new byte[500]);
            c.send(true, 0x0, new byte[1]);
            assertFailsWith(c, 1009);
        }
        assertEquals("close:1009", events.close());
    }

    @Test
    void messageOfExactlyMaxMessageSizeInFramesOfMaxFrameSizeIsEchoed() throws IOException {
        byte[] whole = new byte[1000];
        Arrays.fill(whole, (byte) 'm');
        try (RawWsClient c = openLimited()) {
            c.send(false, 0x1, Arrays.copyOf(whole, 600));
            c.send(true, 0x0, Arrays.copyOfRange(whole, 600, 1000));
            assertArrayEquals(whole, c.read().payload());
        }
    }
}
