package dev.weft.httpserver.websocket.conformance;

import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.Deflate;
import dev.weft.httpserver.testing.RawWsClient;
import dev.weft.httpserver.testing.WebSocketTestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * permessage-deflate (RFC 7692) on the wire, after Autobahn's case groups 12 and 13: negotiation answers, compressed
 * messages of many sizes and fragmentations both ways, RSV1 rules, the size limit while inflating.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
public class PerMessageDeflateConformanceTest extends EchoServerSuite {

    private static final byte[] TEXT = "The quick brown fox jumps over the lazy dog. ".repeat(40)
            .getBytes(StandardCharsets.UTF_8);

    private WebSocketTestServers.EchoServer server;

    private RawWsClient open(WebSocketConfig ws, String offer) throws IOException {
        if (server == null) {
            server = startEcho(ws);
        }
        return RawWsClient.openEcho(server.port(), offer);
    }

    private RawWsClient open(String offer) throws IOException {
        return open(WebSocketConfig.defaults(), offer);
    }

    @Test
    void compressedMessagesAreEchoedCompressedWithRsv1() throws IOException {
        try (RawWsClient c = open("permessage-deflate; client_max_window_bits")) {
            assertEquals("permessage-deflate", c.headers.get("sec-websocket-extensions"));
            Deflater clientContext = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
            Inflater serverContext = new Inflater(true);
            for (int i = 0; i < 3; i++) {
                // the client keeps its context: later messages refer back to earlier ones
                c.send(true, 4, 0x1, Deflate.compress(clientContext, TEXT), true);
                RawWsClient.Frame f = c.read();
                assertEquals(4, f.rsv(), "RSV1 marks the compressed message");
                assertTrue(f.payload().length < TEXT.length / 4);
                assertArrayEquals(TEXT, Deflate.inflate(serverContext, f.payload()));
            }
        }
    }

    @Test
    void messagesUnderCompressionMinSizeGoOutPlain() throws IOException {
        try (RawWsClient c = open("permessage-deflate")) {
            c.send(true, 4, 0x1, Deflate.compress("short".getBytes(StandardCharsets.UTF_8)), true);
            RawWsClient.Frame f = c.read();
            assertEquals(0, f.rsv());
            assertEquals("short", f.text());
            c.sendText("plain messages are fine too");
            assertEquals("plain messages are fine too", c.read().text());
        }
    }

    @Test
    void fragmentedCompressedMessageHasRsv1OnlyOnItsFirstFrame() throws IOException {
        byte[] compressed = Deflate.compress(TEXT);
        int half = compressed.length / 2;
        try (RawWsClient c = open("permessage-deflate")) {
            c.send(false, 4, 0x1, Arrays.copyOfRange(compressed, 0, half), true);
            c.send(true, 0, 0x0, Arrays.copyOfRange(compressed, half, compressed.length), true);
            assertArrayEquals(TEXT, Deflate.inflate(c.read()));
        }
    }

    @Test
    void rsv1OnAContinuationFrameClosesWith1002() throws IOException {
        byte[] compressed = Deflate.compress(TEXT);
        try (RawWsClient c = open("permessage-deflate")) {
            c.send(false, 4, 0x1, Arrays.copyOfRange(compressed, 0, 10), true);
            c.send(true, 4, 0x0, Arrays.copyOfRange(compressed, 10, compressed.length), true);
            assertEquals(1002, c.readClose().closeCode());
        }
    }

    @Test
    void rsv1OnAControlFrameClosesWith1002() throws IOException {
        try (RawWsClient c = open("permessage-deflate")) {
            c.send(true, 4, 0x9, new byte[0], true);
            assertEquals(1002, c.readClose().closeCode());
        }
    }

    @Test
    void invalidDeflateDataClosesWith1007() throws IOException {
        try (RawWsClient c = open("permessage-deflate")) {
            c.send(true, 4, 0x2, new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff}, true);
            assertEquals(1007, c.readClose().closeCode());
        }
    }

    @Test
    void serverNoContextTakeoverMakesEveryMessageStandAlone() throws IOException {
        try (RawWsClient c = open("permessage-deflate; server_no_context_takeover")) {
            assertEquals("permessage-deflate; server_no_context_takeover", c.headers.get("sec-websocket-extensions"));
            c.send(true, 4, 0x1, Deflate.compress(TEXT), true);
            byte[] first = c.read().payload();
            c.send(true, 4, 0x1, Deflate.compress(TEXT), true);
            byte[] second = c.read().payload();
            // with context takeover the second would refer back into the first and come out shorter
            assertArrayEquals(first, second);
            assertArrayEquals(TEXT, Deflate.inflate(new Inflater(true), second));
        }
    }

    @Test
    void withContextTakeoverTheServerRefersBackToEarlierMessages() throws IOException {
        try (RawWsClient c = open("permessage-deflate")) {
            c.send(true, 4, 0x1, Deflate.compress(TEXT), true);
            byte[] first = c.read().payload();
            c.send(true, 4, 0x1, Deflate.compress(TEXT), true);
            byte[] second = c.read().payload();
            assertNotEquals(first.length, second.length);
        }
    }

    @Test
    void clientNoContextTakeoverIsAcknowledgedAndStandAloneMessagesInflate() throws IOException {
        try (RawWsClient c = open("permessage-deflate; client_no_context_takeover")) {
            assertEquals("permessage-deflate; client_no_context_takeover", c.headers.get("sec-websocket-extensions"));
            for (int i = 0; i < 2; i++) {
                c.send(true, 4, 0x1, Deflate.compress(TEXT), true);
                assertEquals(TEXT.length, c.read().payload().length > 0 ? TEXT.length : 0);
            }
        }
    }

    @Test
    void aServerWindowBelow15CompressesOnlyWholeMessagesThatFitIt() throws IOException {
        try (RawWsClient c = open("permessage-deflate; server_max_window_bits=10")) {
            assertEquals("permessage-deflate; server_max_window_bits=10", c.headers.get("sec-websocket-extensions"));
            byte[] small = Arrays.copyOf(TEXT, Math.min(TEXT.length, 1024));
            byte[] large = new byte[4096];
            for (int i = 0; i < large.length; i++) {
                large[i] = TEXT[i % TEXT.length];
            }
            c.send(true, 4, 0x1, Deflate.compress(small), true);
            RawWsClient.Frame f = c.read();
            assertEquals(4, f.rsv(), "a message of at most 2^10 bytes goes out compressed");
            assertArrayEquals(small, Deflate.inflate(new Inflater(true), f.payload()),
                    "compressed from a fresh state: inflates without the earlier messages");
            c.send(true, 4, 0x1, Deflate.compress(large), true);
            f = c.read();
            assertEquals(0, f.rsv(), "a larger message goes out uncompressed");
            assertArrayEquals(large, f.payload());
            c.send(true, 4, 0x1, Deflate.compress(small), true);
            f = c.read();
            assertEquals(4, f.rsv());
            assertArrayEquals(small, Deflate.inflate(new Inflater(true), f.payload()),
                    "no context kept from the first message");
        }
    }

    @Test
    void serverMaxWindowBits15IsAcceptedAndEchoed() throws IOException {
        try (RawWsClient c = open("permessage-deflate; server_max_window_bits=15; client_max_window_bits=9")) {
            assertEquals("permessage-deflate; server_max_window_bits=15", c.headers.get("sec-websocket-extensions"));
        }
    }

    @Test
    void malformedOffersAreDeclined() throws IOException {
        for (String offer : new String[] {"permessage-deflate; unknown_param",
                "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
                "permessage-deflate; client_max_window_bits=16", "permessage-deflate; server_max_window_bits",
                "permessage-deflate; server_no_context_takeover=1"}) {
            try (RawWsClient c = open(offer)) {
                assertNull(c.headers.get("sec-websocket-extensions"), offer);
            }
        }
    }

    @Test
    void compressionSwitchedOffNegotiatesNothing() throws IOException {
        try (RawWsClient c = open(WebSocketConfig.builder().compression(false).build(), "permessage-deflate")) {
            assertFalse(c.headers.containsKey("sec-websocket-extensions"));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 16, 64, 256, 1024, 4096, 8192, 65536, 131072})
    void compressedTextAndBinaryOfEverySizeAreEchoedIntact(int size) throws IOException {
        byte[] text = new byte[size];
        byte[] binary = new byte[size];
        java.util.Random random = new java.util.Random(size);
        for (int i = 0; i < size; i++) {
            text[i] = TEXT[i % TEXT.length];
            binary[i] = (byte) (random.nextInt(16) * 17); // compressible, not text
        }
        try (RawWsClient c = open("permessage-deflate; client_max_window_bits")) {
            Deflater clientContext = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
            Inflater serverContext = new Inflater(true);
            for (int round = 0; round < 2; round++) {
                c.send(true, 4, 0x1, Deflate.compress(clientContext, text), true);
                assertArrayEquals(text, payloadOf(c.read(), serverContext, 0x1));
                c.send(true, 4, 0x2, Deflate.compress(clientContext, binary), true);
                assertArrayEquals(binary, payloadOf(c.read(), serverContext, 0x2));
            }
        }
    }

    /** The payload of an echoed message, inflated in the server's context if it came compressed. */
    private static byte[] payloadOf(RawWsClient.Frame f, Inflater serverContext, int opcode) {
        assertEquals(opcode, f.opcode());
        assertTrue(f.fin());
        return f.rsv() == 4 ? Deflate.inflate(serverContext, f.payload()) : f.payload();
    }

    @Test
    void compressedBinaryInManyFragmentsIsEchoedWhole() throws IOException {
        byte[] data = new byte[20_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i % 251);
        }
        byte[] compressed = Deflate.compress(data);
        try (RawWsClient c = open("permessage-deflate")) {
            for (int off = 0; off < compressed.length; off += 100) {
                int end = Math.min(compressed.length, off + 100);
                c.send(end == compressed.length, off == 0 ? 4 : 0, off == 0 ? 0x2 : 0x0,
                        Arrays.copyOfRange(compressed, off, end), true);
            }
            assertArrayEquals(data, Deflate.inflate(c.read()));
        }
    }

    @Test
    void compressedMessageInflatingPastMaxMessageSizeClosesWith1009() throws Exception {
        byte[] zeros = new byte[100_000]; // a few hundred bytes compressed
        try (RawWsClient c = open(WebSocketConfig.builder().maxMessageSize(50_000).build(), "permessage-deflate")) {
            c.send(true, 4, 0x2, Deflate.compress(zeros), true);
            assertEquals(1009, c.readClose().closeCode());
        }
        assertEquals("close:1009", events.close());
    }
}
