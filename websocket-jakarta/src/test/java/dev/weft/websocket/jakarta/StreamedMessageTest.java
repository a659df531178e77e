package dev.weft.websocket.jakarta;

import dev.weft.httpserver.testing.RawWsClient;
import jakarta.websocket.server.ServerEndpointConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code Reader} and {@code InputStream} handlers read a message while it arrives: each fragment can be read before
 * the next one is sent; the reply of an annotated {@code Reader} method is sent when it returns; a handler that
 * throws closes the session with 1011; a connection lost mid-message fails the handler's read.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StreamedMessageTest {

    private JakartaServers servers;

    @BeforeEach
    void start() throws Exception {
        StreamEndpoints.EVENTS.clear();
        servers = JakartaServers.start(StreamEndpoints.ReaderEndpoint.class);
        servers.container.addEndpoint(ServerEndpointConfig.Builder.create(StreamEndpoints.InputStreamEndpoint.class,
                "/stream/input").build());
    }

    @AfterEach
    void stop() {
        servers.close();
    }

    @Test
    void aReaderReadsEachFragmentBeforeTheNextIsSent() throws Exception {
        try (RawWsClient c = servers.raw("/stream/reader", null)) {
            c.send(false, 0x1, JakartaServers.utf8("Hel"));
            assertEquals("reader:Hel", StreamEndpoints.EVENTS.next());
            c.send(false, 0x0, JakartaServers.utf8("lo €"));
            assertEquals("reader:lo €", StreamEndpoints.EVENTS.next());
            c.send(true, 0x0, JakartaServers.utf8("!"));
            assertEquals("reader:!", StreamEndpoints.EVENTS.next());
            assertEquals("reader-end", StreamEndpoints.EVENTS.next());
            assertEquals("read 8 chars", c.read().text());
            c.sendText("again");
            assertEquals("reader:again", StreamEndpoints.EVENTS.next());
            assertEquals("reader-end", StreamEndpoints.EVENTS.next());
            assertEquals("read 5 chars", c.read().text());
        }
    }

    @Test
    void anInputStreamHandlerReadsEachFragmentBeforeTheNextIsSent() throws Exception {
        try (RawWsClient c = servers.raw("/stream/input", null)) {
            c.send(false, 0x2, new byte[] {1, 2});
            assertEquals("stream:0102", StreamEndpoints.EVENTS.next());
            c.send(true, 0x0, new byte[] {(byte) 0xfe});
            assertEquals("stream:fe", StreamEndpoints.EVENTS.next());
            assertEquals("stream-end", StreamEndpoints.EVENTS.next());
        }
    }

    @Test
    void aReaderThatThrowsClosesTheSessionWith1011WhenTheMessageEnds() throws Exception {
        try (RawWsClient c = servers.raw("/stream/reader", null)) {
            c.send(false, 0x1, JakartaServers.utf8("boom"));
            assertEquals("reader:boom", StreamEndpoints.EVENTS.next());
            c.send(true, 0x0, JakartaServers.utf8("ignored"));
            assertEquals(1011, c.readClose().closeCode());
        }
    }

    @Test
    void aConnectionLostMidMessageFailsTheReadersNextRead() throws Exception {
        RawWsClient c = servers.raw("/stream/reader", null);
        c.send(false, 0x1, JakartaServers.utf8("half"));
        assertEquals("reader:half", StreamEndpoints.EVENTS.next());
        c.close();
        String failed = StreamEndpoints.EVENTS.next();
        assertTrue(failed.startsWith("failed:"), failed);
    }
}
