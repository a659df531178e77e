package dev.weft.websocket.jakarta;

import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.Deflate;
import dev.weft.httpserver.testing.RawWsClient;
import jakarta.websocket.server.ServerEndpointConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Partial messages ({@code @OnMessage} with {@code boolean last}, {@link jakarta.websocket.MessageHandler.Partial})
 * arrive as their frames do: each fragment is delivered before the next one is even sent, a compressed message
 * may come in several parts, and the engine's {@code maxMessageSize} still closes a message too large in total
 * with 1009. Other handlers of the same session keep getting whole messages.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class PartialMessageDeliveryTest {

    private static final byte[] EURO = "€".getBytes(StandardCharsets.UTF_8); // e2 82 ac

    private JakartaServers servers;

    @BeforeEach
    void start() throws Exception {
        PartialEndpoints.EVENTS.clear();
        servers = JakartaServers.start(WebSocketConfig.builder().maxFrameSize(600).maxMessageSize(1000).build(),
                PartialEndpoints.TextParts.class, PartialEndpoints.BufferParts.class,
                PartialEndpoints.ByteArrayParts.class);
        servers.container.addEndpoint(ServerEndpointConfig.Builder.create(PartialEndpoints.HandlerParts.class,
                "/parts/handler").build());
    }

    @AfterEach
    void stop() {
        servers.close();
        // a session's close reaches @OnClose after the test: no event of it may land in the next test
        Await.until("@OnClose of every session", () -> PartialEndpoints.OPEN_TEXT_SESSIONS.get() == 0);
    }

    @Test
    void partialTextMethodGetsEachFragmentBeforeTheNextIsSent() throws Exception {
        try (RawWsClient c = servers.raw("/parts/text", null)) {
            c.send(false, 0x1, JakartaServers.utf8("Hel"));
            assertEquals("text:Hel:false", PartialEndpoints.EVENTS.next());
            c.send(false, 0x0, JakartaServers.utf8("lo"));
            assertEquals("text:lo:false", PartialEndpoints.EVENTS.next());
            c.send(true, 0x0, JakartaServers.utf8(" world"));
            assertEquals("text: world:true", PartialEndpoints.EVENTS.next());
            c.sendText("single");
            assertEquals("text:single:true", PartialEndpoints.EVENTS.next());
        }
    }

    @Test
    void aCharacterSplitAcrossFragmentsIsDeliveredWholeInTheLaterPart() throws Exception {
        try (RawWsClient c = servers.raw("/parts/text", null)) {
            c.send(false, 0x1, new byte[] {'a', EURO[0]});
            assertEquals("text:a:false", PartialEndpoints.EVENTS.next());
            c.send(true, 0x0, new byte[] {EURO[1], EURO[2], 'b'});
            assertEquals("text:€b:true", PartialEndpoints.EVENTS.next());
        }
    }

    @Test
    void anEmptyLastFragmentEndsTheMessageWithAnEmptyPart() throws Exception {
        try (RawWsClient c = servers.raw("/parts/text", null)) {
            c.send(false, 0x1, JakartaServers.utf8("all"));
            assertEquals("text:all:false", PartialEndpoints.EVENTS.next());
            c.send(true, 0x0, new byte[0]);
            assertEquals("text::true", PartialEndpoints.EVENTS.next());
        }
    }

    @Test
    void partialByteBufferMethodGetsEachFragmentAndWholeTextStaysWhole() throws Exception {
        try (RawWsClient c = servers.raw("/parts/buffer", null)) {
            c.send(false, 0x2, new byte[] {1, 2});
            assertEquals("binary:0102:false", PartialEndpoints.EVENTS.next());
            c.send(true, 0x0, new byte[] {(byte) 0xff});
            assertEquals("binary:ff:true", PartialEndpoints.EVENTS.next());
            c.send(false, 0x1, JakartaServers.utf8("who"));
            c.send(true, 0x0, JakartaServers.utf8("le"));
            assertEquals("whole-text:whole", PartialEndpoints.EVENTS.next());
        }
    }

    @Test
    void partialByteArrayMethodWithLastFirstGetsEachFragment() throws Exception {
        try (RawWsClient c = servers.raw("/parts/bytes", null)) {
            c.send(false, 0x2, new byte[] {0x0a});
            assertEquals("bytes:0a:false", PartialEndpoints.EVENTS.next());
            c.send(true, 0x0, new byte[] {0x0b, 0x0c});
            assertEquals("bytes:0b0c:true", PartialEndpoints.EVENTS.next());
        }
    }

    @Test
    void partialMessageHandlersGetEachFragment() throws Exception {
        try (RawWsClient c = servers.raw("/parts/handler", null)) {
            c.send(false, 0x1, JakartaServers.utf8("one "));
            assertEquals("handler-text:one :false", PartialEndpoints.EVENTS.next());
            c.send(true, 0x0, JakartaServers.utf8("two"));
            assertEquals("handler-text:two:true", PartialEndpoints.EVENTS.next());
            c.send(false, 0x2, new byte[] {7});
            assertEquals("handler-binary:07:false", PartialEndpoints.EVENTS.next());
            c.send(true, 0x0, new byte[] {8});
            assertEquals("handler-binary:08:true", PartialEndpoints.EVENTS.next());
        }
    }

    @Test
    void aWholeHandlerOfTheOtherKindStillGetsWholeMessages() throws Exception {
        try (RawWsClient c = servers.raw("/parts/text", null)) {
            c.send(false, 0x2, new byte[3]);
            c.send(true, 0x0, new byte[4]);
            assertEquals("whole-binary:7", PartialEndpoints.EVENTS.next());
        }
    }

    @Test
    void aCompressedMessageArrivesInPartsAsItsFramesInflate() throws Exception {
        String text = "partial and compressed, ".repeat(40); // 960 bytes
        byte[] compressed = Deflate.compress(JakartaServers.utf8(text));
        int half = compressed.length / 2;
        try (RawWsClient c = servers.raw("/parts/text", "permessage-deflate")) {
            assertEquals("permessage-deflate", c.headers.get("sec-websocket-extensions"));
            c.send(false, 4, 0x1, Arrays.copyOfRange(compressed, 0, half), true);
            List<String> parts = new ArrayList<>();
            parts.add(PartialEndpoints.EVENTS.next()); // before the rest of the message is sent
            c.send(true, 0, 0x0, Arrays.copyOfRange(compressed, half, compressed.length), true);
            while (!parts.get(parts.size() - 1).endsWith(":true")) {
                parts.add(PartialEndpoints.EVENTS.next());
            }
            assertTrue(parts.size() >= 2, "in parts: " + parts);
            StringBuilder joined = new StringBuilder();
            for (int i = 0; i < parts.size(); i++) {
                String p = parts.get(i);
                assertTrue(p.endsWith(i == parts.size() - 1 ? ":true" : ":false"), p);
                joined.append(p, "text:".length(), p.lastIndexOf(':'));
            }
            assertEquals(text, joined.toString());
        }
    }

    @Test
    void aPartialMessageLargerInTotalThanMaxMessageSizeClosesWith1009() throws Exception {
        try (RawWsClient c = servers.raw("/parts/text", null)) {
            c.send(false, 0x1, JakartaServers.utf8("a".repeat(600)));
            assertEquals("text:" + "a".repeat(600) + ":false", PartialEndpoints.EVENTS.next());
            c.send(true, 0x0, JakartaServers.utf8("b".repeat(401))); // 1001 bytes in total, each frame within maxFrameSize
            assertEquals(1009, c.readClose().closeCode());
            c.sendClose(1009);
            assertTrue(c.closedByServer(5000));
        }
        assertEquals("close:1009", PartialEndpoints.EVENTS.next(), "the part past the limit is not delivered");
    }

    @Test
    void aPartialMessageOfExactlyMaxMessageSizeIsDelivered() throws Exception {
        try (RawWsClient c = servers.raw("/parts/text", null)) {
            c.send(false, 0x1, JakartaServers.utf8("a".repeat(600)));
            assertEquals("text:" + "a".repeat(600) + ":false", PartialEndpoints.EVENTS.next());
            c.send(true, 0x0, JakartaServers.utf8("b".repeat(400)));
            assertEquals("text:" + "b".repeat(400) + ":true", PartialEndpoints.EVENTS.next());
        }
    }
}
