package dev.weft.httpserver.websocket;

import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawWsClient;
import dev.weft.httpserver.testing.TestServer;
import dev.weft.httpserver.testing.WebSocketTestServers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What an idle session costs besides its connection's thread: no thread of its own (the timers of all sessions
 * run on one shared sweeper), while every timer still works for all of them.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class IdleSessionResourcesTest {

    private static final int SESSIONS = 40;

    private final WebSocketTestServers.Events events = new WebSocketTestServers.Events();
    private final List<RawWsClient> clients = new ArrayList<>();
    private TestServer server;

    @AfterEach
    void stop() throws IOException {
        for (RawWsClient c : clients) {
            c.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void idleSessionsAddOneThreadEachAndAllStillTimeOut() throws Exception {
        // The idle timeout is long enough to count threads first, short enough to see it fire for all.
        server = WebSocketTestServers.echoServer(WebSocketConfig.builder().idleTimeout(Duration.ofSeconds(3))
                .pingInterval(Duration.ofMillis(700)).build(), events);
        open();
        int before = threadCount();
        for (int i = 1; i < SESSIONS; i++) {
            open();
        }
        int after = threadCount();
        // Each session is served on its connection's thread; timers add none per session (before: two each).
        assertTrue(after - before <= SESSIONS - 1 + 3,
                "threads grew by " + (after - before) + " for " + (SESSIONS - 1) + " more sessions");

        // Every session is pinged while quiet, then closed with 1001 at its idle timeout.
        for (RawWsClient c : clients) {
            RawWsClient.Frame f = c.read();
            assertEquals(0x9, f.opcode(), "a ping while quiet");
        }
        for (RawWsClient c : clients) {
            assertEquals(1001, c.readClose().closeCode());
            c.sendClose(1001);
            assertTrue(c.closedByServer(5000));
        }
        for (int i = 0; i < SESSIONS; i++) {
            assertEquals("close:1001", events.close());
        }
        Await.until("the ended sessions to leave the sweeper", () -> SessionSweeper.shared().size() == 0);
    }

    private RawWsClient open() throws IOException, InterruptedException {
        RawWsClient c = RawWsClient.open(server.port(), "/echo", null);
        clients.add(c);
        assertEquals(101, c.status);
        assertEquals("open", events.next());
        return c;
    }

    /** Platform and virtual threads alive now, from the JDK's thread dump (which lists virtual threads too). */
    private static int threadCount() throws Exception {
        Path dump = Files.createTempFile("threads", ".json");
        try {
            Files.delete(dump);
            // HotSpotDiagnosticMXBean.dumpThreads(file, JSON), by reflection: the tests are compiled into the
            // engine's module, which does not read jdk.management.
            Class<?> bean = Class.forName("com.sun.management.HotSpotDiagnosticMXBean");
            @SuppressWarnings({"unchecked", "rawtypes"})
            Object diagnostics = Class.forName("java.lang.management.ManagementFactory")
                    .getMethod("getPlatformMXBean", Class.class).invoke(null, bean);
            Class<?> format = Class.forName("com.sun.management.HotSpotDiagnosticMXBean$ThreadDumpFormat");
            @SuppressWarnings({"unchecked", "rawtypes"})
            Object json = Enum.valueOf((Class) format, "JSON");
            bean.getMethod("dumpThreads", String.class, format).invoke(diagnostics, dump.toString(), json);
            Matcher m = Pattern.compile("\"tid\"").matcher(Files.readString(dump));
            int n = 0;
            while (m.find()) {
                n++;
            }
            return n;
        } finally {
            Files.deleteIfExists(dump);
        }
    }
}
