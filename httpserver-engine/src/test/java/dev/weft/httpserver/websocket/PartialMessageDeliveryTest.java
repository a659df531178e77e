package dev.weft.httpserver.websocket;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.Deflate;
import dev.weft.httpserver.testing.RawWsClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PartialMessageListener}: parts never split a character and are at most {@code maxFrameSize}, plain or
 * inflated; {@link PartialMessageListener#delivery} chooses between whole and in parts per message, and
 * {@link PartialMessageListener.Delivery#PARTS_WITHIN_LIMIT} holds a message's total to {@code maxMessageSize}
 * (1009), plain or compressed, while {@link PartialMessageListener.Delivery#PARTS} does not.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PartialMessageDeliveryTest {

    private final LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
    /** The text parts themselves, in order. */
    private final LinkedBlockingQueue<String> textParts = new LinkedBlockingQueue<>();
    /** What {@code delivery} answers for text; binary is always {@code WHOLE}. */
    private volatile PartialMessageListener.Delivery textDelivery = PartialMessageListener.Delivery.PARTS_WITHIN_LIMIT;
    private TestServer server;

    @BeforeEach
    void start() throws IOException {
        WebSocketConfig ws = WebSocketConfig.builder().maxFrameSize(600).maxMessageSize(1000).build();
        server = TestServer.builder().config(ServerConfig.builder().webSocket(ws).build())
                .handle("/parts", WebSocketHandler.builder(h -> new PartialMessageListener() {
                    @Override
                    public Delivery delivery(boolean text) {
                        return text ? textDelivery : Delivery.WHOLE;
                    }

                    @Override
                    public void onTextPart(WebSocketSession s, String part, boolean last) {
                        textParts.add(part);
                        seen.add("part:" + part.length() + ":" + last);
                    }

                    @Override
                    public void onBinaryPart(WebSocketSession s, ByteBuffer part, boolean last) {
                        seen.add("binary part");
                    }

                    @Override
                    public void onBinary(WebSocketSession s, ByteBuffer message) {
                        seen.add("binary:" + message.remaining());
                    }

                    @Override
                    public void onClose(WebSocketSession s, CloseStatus status) {
                        seen.add("close:" + status.code());
                    }
                }).build()).start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private String next() throws InterruptedException {
        String e = seen.poll(10, TimeUnit.SECONDS);
        assertNotNull(e, "no listener event within 10 s");
        return e;
    }

    private RawWsClient open(String extensions) throws IOException {
        return RawWsClient.open(server.port(), "/parts", extensions);
    }

    /** The parts of the next text message, once its last has arrived. */
    private List<String> partsOfOneMessage() throws InterruptedException {
        while (!next().endsWith(":true")) {
            // one more part
        }
        List<String> parts = new ArrayList<>();
        textParts.drainTo(parts);
        return parts;
    }

    @Test
    void partsNeverSplitACharacterAndAreAtMostMaxFrameSizePlainOrInflated() throws Exception {
        textDelivery = PartialMessageListener.Delivery.PARTS;
        String euros = "€".repeat(1000); // 3,000 bytes in total, over maxMessageSize
        byte[] utf8 = euros.getBytes(StandardCharsets.UTF_8);
        try (RawWsClient c = open("permessage-deflate")) {
            // plain fragments of 500 bytes, each ending inside a character
            for (int off = 0; off < utf8.length; off += 500) {
                c.send(off + 500 >= utf8.length, off == 0 ? 0x1 : 0x0, Arrays.copyOfRange(utf8, off, off + 500));
            }
            List<String> parts = partsOfOneMessage();
            assertEquals(euros, String.join("", parts));
            assertEquals(6, parts.size(), "a part per frame");
            // one compressed frame that inflates to 3,000 bytes: handed out in parts of at most maxFrameSize
            c.send(true, 4, 0x1, Deflate.compress(utf8), true);
            parts = partsOfOneMessage();
            assertEquals(euros, String.join("", parts));
            assertTrue(parts.size() >= 5, "parts: " + parts.size());
            parts.forEach(p -> assertTrue(p.getBytes(StandardCharsets.UTF_8).length <= 600));
        }
    }

    @Test
    void eachMessageIsDeliveredAsDeliveryAnswersForItsKind() throws Exception {
        try (RawWsClient c = open(null)) {
            c.send(false, 0x2, new byte[300]);
            c.send(false, 0x0, new byte[300]);
            c.send(true, 0x0, new byte[300]);
            assertEquals("binary:900", next(), "binary: WHOLE");
            c.send(false, 0x1, "x".repeat(300).getBytes(StandardCharsets.US_ASCII));
            assertEquals("part:300:false", next(), "text: in parts, before the message ends");
            c.send(true, 0x0, "y".repeat(10).getBytes(StandardCharsets.US_ASCII));
            assertEquals("part:10:true", next());
        }
    }

    @Test
    void partsWithinLimitCloseWith1009WhenThePlainTotalPassesMaxMessageSize() throws Exception {
        try (RawWsClient c = open(null)) {
            c.send(false, 0x1, new byte[600]);
            assertEquals("part:600:false", next());
            c.send(true, 0x0, new byte[401]);
            assertEquals(1009, c.readClose().closeCode());
        }
        assertEquals("close:1009", next(), "the part past the limit is not delivered");
    }

    @Test
    void partsWithinLimitCloseWith1009WhenACompressedMessageInflatesPastMaxMessageSize() throws Exception {
        byte[] compressed = Deflate.compress(new byte[5000]); // a few bytes that inflate to 5,000
        try (RawWsClient c = open("permessage-deflate")) {
            c.send(true, 4, 0x1, compressed, true);
            assertEquals(1009, c.readClose().closeCode());
        }
        int delivered = 0;
        for (String e = next(); !e.startsWith("close:"); e = next()) {
            delivered += Integer.parseInt(e.split(":")[1]);
        }
        assertTrue(delivered <= 1000, "at most maxMessageSize delivered before the close: " + delivered);
    }

    @Test
    void partsWithoutLimitTakeAMessageLargerThanMaxMessageSize() throws Exception {
        textDelivery = PartialMessageListener.Delivery.PARTS;
        try (RawWsClient c = open(null)) {
            for (int i = 0; i < 3; i++) {
                c.send(i == 2, i == 0 ? 0x1 : 0x0, new byte[600]);
                assertEquals("part:600:" + (i == 2), next());
            }
            c.sendText("still open");
            assertEquals("part:10:true", next());
            // Checked before the client goes: its own close is an event too, and may already be there after.
            assertNull(seen.poll(), "nothing but the parts, and no close, while the client is connected");
        }
    }
}
