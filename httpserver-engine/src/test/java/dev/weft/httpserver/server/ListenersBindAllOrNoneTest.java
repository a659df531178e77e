package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A server binds all its listeners or none: a port taken fails the bind, naming it, and frees the others. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ListenersBindAllOrNoneTest {

    private static final String HOST = "127.0.0.1";

    /** A port that was free a moment ago, free again once this returns. */
    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        }
    }

    @Test
    void aTakenSecondPortFailsCreateNamingItAndLeavesTheFirstFree() throws Exception {
        int first = freePort();
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName(HOST))) {
            int second = taken.getLocalPort();
            HttpsConfigurator tls = new HttpsConfigurator(TestCertificates.get().serverContext());
            BindException e = assertThrows(BindException.class, () -> Weft.createServer(ServerConfig.defaults(),
                    List.of(Listener.http(new InetSocketAddress(HOST, first)),
                            Listener.https(new InetSocketAddress(HOST, second), tls))));
            assertTrue(e.getMessage().contains(HOST + ":" + second), e.getMessage());
            assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("in use"), e.getMessage());
        }
        try (ServerSocket again = new ServerSocket(first, 1, java.net.InetAddress.getByName(HOST))) {
            assertEquals(first, again.getLocalPort(), "the first listener was closed again");
        }
    }

    @Test
    void aTakenPortFailsAddListenerAndLeavesTheServerAsItWas() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(HOST, 0), 0);
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getByName(HOST))) {
            BindException e = assertThrows(BindException.class, () -> Weft.addListener(server,
                    Listener.http(new InetSocketAddress(HOST, taken.getLocalPort()))));
            assertTrue(e.getMessage().contains(":" + taken.getLocalPort()), e.getMessage());
            assertEquals(1, Weft.stats(server).listeners().size());
            server.start();
        } finally {
            server.stop(0);
        }
    }

    @Test
    void listenersAreAddedBeforeStartOnly() throws Exception {
        HttpServer server = Weft.createServer(ServerConfig.defaults(),
                List.of(Listener.http(new InetSocketAddress(HOST, 0))));
        server.start();
        try {
            assertThrows(IllegalStateException.class,
                    () -> Weft.addListener(server, Listener.http(new InetSocketAddress(HOST, 0))));
            assertThrows(BindException.class, () -> server.bind(new InetSocketAddress(HOST, 0), 0));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void stopClosesEveryListener() throws Exception {
        HttpServer server = Weft.createServer(ServerConfig.defaults(), List.of(
                Listener.http(new InetSocketAddress(HOST, 0)), Listener.http(new InetSocketAddress(HOST, 0))));
        server.start();
        server.stop(0);
        for (var l : Weft.stats(server).listeners()) {
            try (ServerSocket again = new ServerSocket(l.address().getPort(), 1, l.address().getAddress())) {
                assertEquals(l.address().getPort(), again.getLocalPort());
            }
        }
    }
}
