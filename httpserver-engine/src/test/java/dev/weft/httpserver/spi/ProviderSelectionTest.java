package dev.weft.httpserver.spi;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import com.sun.net.httpserver.spi.HttpServerProvider;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The JDK's lookup finds Weft, and Weft's servers enforce the API's state rules. */
@Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProviderSelectionTest {

    private static final HttpHandler OK = ex -> {
        ex.sendResponseHeaders(200, -1);
        ex.close();
    };

    private final List<HttpServer> created = new ArrayList<>();

    @AfterEach
    void stopAll() {
        for (HttpServer s : created) {
            try {
                s.stop(0);
            } catch (RuntimeException notStarted) {
                // some tests leave a server unstarted or unbound
            }
        }
    }

    private static InetSocketAddress loopbackAnyPort() {
        return new InetSocketAddress("127.0.0.1", 0);
    }

    private HttpServer track(HttpServer s) {
        created.add(s);
        return s;
    }

    @Test
    void httpServerCreateReturnsWeftServer() throws IOException {
        HttpServer server = track(HttpServer.create());
        assertEquals("dev.weft.httpserver.server.WeftHttpServer", server.getClass().getName());
    }

    @Test
    void httpServerCreateWithAddressReturnsWeftServer() throws IOException {
        HttpServer server = track(HttpServer.create(loopbackAnyPort(), 0));
        assertEquals("dev.weft.httpserver.server.WeftHttpServer", server.getClass().getName());
    }

    @Test
    void httpsServerCreateReturnsWeftHttpsServer() throws IOException {
        HttpsServer server = HttpsServer.create();
        track(server);
        assertEquals("dev.weft.httpserver.server.WeftHttpsServer", server.getClass().getName());
    }

    @Test
    void providerLookupReturnsWeftProvider() {
        HttpServerProvider provider = HttpServerProvider.provider();
        assertTrue(provider.getClass().getName().startsWith("dev.weft.httpserver."),
                "provider is " + provider.getClass().getName());
    }

    @Test
    void startBeforeBindThrowsIllegalState() throws IOException {
        HttpServer server = track(HttpServer.create());
        server.createContext("/", OK);
        assertThrows(IllegalStateException.class, server::start);
    }

    @Test
    void secondStartThrowsIllegalState() throws IOException {
        HttpServer server = track(HttpServer.create(loopbackAnyPort(), 0));
        server.start();
        assertThrows(IllegalStateException.class, server::start);
    }

    @Test
    void secondBindThrowsBindException() throws IOException {
        HttpServer server = track(HttpServer.create(loopbackAnyPort(), 0));
        assertThrows(BindException.class, () -> server.bind(loopbackAnyPort(), 0));
    }

    @Test
    void negativeStopDelayThrowsIllegalArgument() throws IOException {
        HttpServer server = track(HttpServer.create(loopbackAnyPort(), 0));
        server.start();
        assertThrows(IllegalArgumentException.class, () -> server.stop(-1));
    }

    @Test
    void createContextWithPathNotStartingWithSlashThrowsIllegalArgument() throws IOException {
        HttpServer server = track(HttpServer.create());
        assertThrows(IllegalArgumentException.class, () -> server.createContext("foo", OK));
        assertThrows(IllegalArgumentException.class, () -> server.createContext("", OK));
    }

    @Test
    void createContextWithNullPathOrHandlerThrowsNullPointer() throws IOException {
        HttpServer server = track(HttpServer.create());
        assertThrows(NullPointerException.class, () -> server.createContext(null, OK));
        assertThrows(NullPointerException.class, () -> server.createContext("/x", null));
    }

    @Test
    void duplicateContextPathThrowsIllegalArgument() throws IOException {
        HttpServer server = track(HttpServer.create());
        server.createContext("/dup", OK);
        assertThrows(IllegalArgumentException.class, () -> server.createContext("/dup", OK));
        assertThrows(IllegalArgumentException.class, () -> server.createContext("/dup"));
    }

    @Test
    void removingUnknownContextThrowsIllegalArgument() throws IOException {
        HttpServer server = track(HttpServer.create());
        server.createContext("/known", OK);
        assertThrows(IllegalArgumentException.class, () -> server.removeContext("/unknown"));
        assertThrows(IllegalArgumentException.class, () -> server.removeContext("/known/"));
    }

    @Test
    void setExecutorAfterStartThrowsIllegalState() throws IOException {
        HttpServer server = track(HttpServer.create(loopbackAnyPort(), 0));
        server.start();
        assertThrows(IllegalStateException.class, () -> server.setExecutor(Runnable::run));
    }

    @Test
    void getAddressAfterBindingPortZeroGivesTheRealPort() throws IOException {
        HttpServer server = track(HttpServer.create());
        server.bind(loopbackAnyPort(), 0);
        int port = server.getAddress().getPort();
        assertNotEquals(0, port);
        server.createContext("/", OK);
        server.start();
        assertEquals(port, server.getAddress().getPort());
        try (RawHttpClient c = RawHttpClient.connect(port)) {
            c.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertEquals(200, c.readResponse().status());
        }
    }
}
