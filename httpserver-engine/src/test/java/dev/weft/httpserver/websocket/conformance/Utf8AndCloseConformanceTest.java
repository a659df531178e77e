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

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Text validation (RFC 6455 §8.1, Autobahn group 6) and the close handshake (§5.5.1, §7.4, group 7) on the
 * wire.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
public class Utf8AndCloseConformanceTest extends EchoServerSuite {

    private WebSocketTestServers.EchoServer server;

    @BeforeEach
    void start() throws IOException {
        server = startEcho(WebSocketConfig.builder().compression(false)
                .closeTimeout(java.time.Duration.ofMillis(500)).build());
    }

    private RawWsClient open() throws IOException {
        return RawWsClient.openEcho(server.port(), null);
    }

    private static byte[] bytes(int... b) {
        byte[] out = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = (byte) b[i];
        }
        return out;
    }

    @Test
    void invalidUtf8InTextClosesWith1007() throws IOException {
        // an overlong '/', a surrogate, a code point above U+10FFFF, a lone continuation byte
        byte[][] cases = {bytes(0xc0, 0xaf), bytes(0xed, 0xa0, 0x80), bytes(0xf4, 0x90, 0x80, 0x80), bytes(0x80)};
        for (byte[] bad : cases) {
            try (RawWsClient c = open()) {
                c.send(true, 0x1, bad);
                assertEquals(1007, c.readClose().closeCode());
            }
        }
    }

    @Test
    void characterSplitAcrossFragmentsIsValid() throws IOException {
        byte[] euro = "€".getBytes(StandardCharsets.UTF_8); // e2 82 ac
        try (RawWsClient c = open()) {
            c.send(false, 0x1, new byte[] {euro[0]});
            c.send(false, 0x0, new byte[] {euro[1]});
            c.send(true, 0x0, new byte[] {euro[2]});
            assertEquals("€", c.read().text());
        }
    }

    @Test
    void invalidUtf8FailsFastBeforeTheMessageEnds() throws IOException {
        try (RawWsClient c = open()) {
            c.send(false, 0x1, "valid so far".getBytes(StandardCharsets.UTF_8));
            c.send(false, 0x0, bytes(0xce, 0xba, 0xf4, 0x90)); // 0xf4 0x90 can never become valid
            // The message never ends, yet the close comes.
            assertEquals(1007, c.readClose().closeCode());
        }
    }

    @Test
    void textEndingInsideACharacterClosesWith1007() throws IOException {
        try (RawWsClient c = open()) {
            c.send(true, 0x1, bytes('a', 0xe2, 0x82));
            assertEquals(1007, c.readClose().closeCode());
        }
    }

    @Test
    void invalidUtf8InBinaryIsFine() throws IOException {
        try (RawWsClient c = open()) {
            c.send(true, 0x2, bytes(0xc0, 0xaf));
            assertArrayEquals(bytes(0xc0, 0xaf), c.read().payload());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999})
    void validCloseCodeIsEchoedAndServerClosesTcp(int code) throws Exception {
        try (RawWsClient c = open()) {
            c.sendClose(code);
            RawWsClient.Frame echo = c.read();
            assertEquals(0x8, echo.opcode());
            assertEquals(code, echo.closeCode());
            assertTrue(c.closedByServer(5000), "§7.1.1: the server closes the TCP connection first");
        }
        assertEquals("close:" + code, events.close());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535})
    void invalidCloseCodeClosesWith1002(int code) throws IOException {
        try (RawWsClient c = open()) {
            c.sendClose(code);
            assertEquals(1002, c.readClose().closeCode());
            assertTrue(c.closedByServer(5000));
        }
    }

    @Test
    void closeWithOneBytePayloadClosesWith1002() throws IOException {
        try (RawWsClient c = open()) {
            c.send(true, 0x8, new byte[] {3});
            assertEquals(1002, c.readClose().closeCode());
        }
    }

    @Test
    void closeReasonThatIsNotUtf8ClosesWith1007() throws IOException {
        try (RawWsClient c = open()) {
            c.send(true, 0x8, bytes(0x03, 0xe8, 0xce, 0xba, 0xe1, 0xbd, 0xb9, 0xcf, 0x83, 0xce, 0xbc, 0xce, 0xb5,
                    0xed, 0xa0, 0x80, 0x65, 0x64, 0x69, 0x74, 0x65, 0x64));
            assertEquals(1007, c.readClose().closeCode());
        }
    }

    @Test
    void emptyCloseIsEchoedEmptyAndReportedAs1005() throws Exception {
        try (RawWsClient c = open()) {
            c.send(true, 0x8, new byte[0]);
            RawWsClient.Frame echo = c.read();
            assertEquals(0x8, echo.opcode());
            assertEquals(0, echo.payload().length);
            assertTrue(c.closedByServer(5000));
        }
        assertEquals("close:1005", events.close());
    }

    @Test
    void closeWithReasonIsReportedToTheListener() throws Exception {
        try (RawWsClient c = open()) {
            byte[] reason = "bye ✓".getBytes(StandardCharsets.UTF_8);
            byte[] payload = new byte[2 + reason.length];
            payload[0] = 0x03;
            payload[1] = (byte) 0xe8;
            System.arraycopy(reason, 0, payload, 2, reason.length);
            c.send(true, 0x8, payload);
            assertEquals(1000, c.read().closeCode());
        }
        assertEquals("close:1000", events.close());
    }

    @Test
    void framesAfterTheCloseAreIgnored() throws IOException {
        try (RawWsClient c = open()) {
            // one write, so that the server has not closed before the rest arrives
            java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
            b.writeBytes(RawWsClient.frame(true, 0, 0x8, bytes(0x03, 0xe8), true));
            b.writeBytes(RawWsClient.frame(true, 0, 0x1, "too late".getBytes(StandardCharsets.UTF_8), true));
            b.writeBytes(RawWsClient.frame(true, 0, 0x9, new byte[0], true));
            c.sendRaw(b.toByteArray());
            RawWsClient.Frame f = c.read();
            assertEquals(0x8, f.opcode(), "no echo or pong after the close");
            assertTrue(c.closedByServer(5000));
        }
    }

    @Test
    void peerThatNeverAnswersOurCloseIsDisconnectedAfterCloseTimeout() throws Exception {
        try (RawWsClient c = open()) {
            c.send(true, 0x1, bytes(0xff)); // invalid: the server fails the session with 1007 and waits
            assertEquals(1007, c.readClose().closeCode());
            // We never answer; the close timeout (500 ms) ends the connection.
            assertTrue(c.closedByServer(5000));
        }
        assertEquals("close:1007", events.close());
    }

    @Test
    void clientVanishingWithoutCloseIsReportedAs1006() throws Exception {
        RawWsClient c = open();
        c.sendText("x");
        c.read();
        c.close();
        assertEquals("close:1006", events.close());
    }

    @Test
    void validTextOfEveryEncodedLengthSentAByteAFragmentIsEchoed() throws IOException {
        // 1-, 2-, 3- and 4-byte sequences, with the edges: U+007F, U+07FF, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF
        String text = "κόσμε \u007f\u07ff\ud7ff\ue000\ufffd\uffff\ud800\udc00\udbff\udfff 𝄞";
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        try (RawWsClient c = open()) {
            for (int i = 0; i < utf8.length; i++) {
                c.send(i == utf8.length - 1, i == 0 ? 0x1 : 0x0, new byte[] {utf8[i]});
            }
            RawWsClient.Frame f = c.read();
            assertEquals(0x1, f.opcode());
            assertEquals(text, f.text());
        }
    }

    /** A close payload of {@code length} bytes: code 1000 and a reason of 'r's. */
    private static byte[] closePayload(int length) {
        byte[] payload = new byte[length];
        java.util.Arrays.fill(payload, (byte) 'r');
        payload[0] = 0x03;
        payload[1] = (byte) 0xe8;
        return payload;
    }

    @Test
    void closeWithTheLongestReasonIsEchoed() throws Exception {
        try (RawWsClient c = open()) {
            c.send(true, 0x8, closePayload(125)); // a code and a reason of 123 bytes
            assertEquals(1000, c.read().closeCode());
            assertTrue(c.closedByServer(5000));
        }
        assertEquals("close:1000", events.close());
    }

    @Test
    void closeWithPayloadOver125BytesClosesWith1002() throws IOException {
        try (RawWsClient c = open()) {
            c.send(true, 0x8, closePayload(126));
            assertEquals(1002, c.readClose().closeCode());
        }
    }

    @Test
    void invalidUtf8InATextMessageIsReportedToTheEndpointAs1007() throws Exception {
        try (RawWsClient c = open()) {
            c.send(false, 0x1, "fine".getBytes(StandardCharsets.UTF_8));
            c.send(true, 0x0, bytes(0xed, 0xbf, 0xbf)); // U+DFFF, a lone surrogate
            assertEquals(1007, c.readClose().closeCode());
            c.sendClose(1007);
            assertTrue(c.closedByServer(5000));
        }
        assertEquals("close:1007", events.close());
    }
}
