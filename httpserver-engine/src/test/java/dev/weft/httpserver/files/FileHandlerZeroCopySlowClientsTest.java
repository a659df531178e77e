package dev.weft.httpserver.files;

import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestFile;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A file sent without copying meets the same slow-client protection as written bytes, and a client that goes
 * away in the middle of one is a client event: the minimum response rate and the write timeout cut a client that
 * stops reading (the transfer waits in measured pieces), a client that reads steadily above the minimum is not
 * cut, and a client that resets the connection mid-file is counted, logged at DEBUG only, and leaves no file
 * open and no exchange running. The clients are raw sockets with small receive buffers.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FileHandlerZeroCopySlowClientsTest {

    private static final Duration GRACE = Duration.ofSeconds(1);
    private static final Duration LONG = Duration.ofSeconds(30);
    private static final long MEGABYTE_PER_SECOND = 1024 * 1024;
    private static final String GET_LARGE = "GET /large.bin HTTP/1.1\r\nHost: localhost\r\n\r\n";

    private static Path root;
    private static TestFile large;
    private static TestFile paced;

    private TestServer server;
    /** What the file handler threw, once it has returned. */
    private final AtomicReference<Throwable> handlerFailure = new AtomicReference<>();
    private final CountDownLatch handlerReturned = new CountDownLatch(1);

    @BeforeAll
    static void files() throws IOException {
        root = Files.createTempDirectory("weft-zero-copy-slow");
        large = TestFile.create(root, "large.bin", 64L * 1024 * 1024, 3);
        paced = TestFile.create(root, "paced.bin", 12L * 1024 * 1024, 4);
    }

    @AfterAll
    static void deleteFiles() throws IOException {
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted((x, y) -> y.compareTo(x)).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    /** Starts a server whose file handler reports how it ended. */
    private void start(ServerConfig config) throws IOException {
        FileHandler files = FileHandler.builder(root).build();
        HttpHandler watched = exchange -> {
            try {
                files.handle(exchange);
            } catch (IOException | RuntimeException e) {
                handlerFailure.set(e);
                throw e;
            } finally {
                handlerReturned.countDown();
            }
        };
        server = TestServer.builder().config(config).handle("/", watched).start();
    }

    private static ServerConfig.Builder config() {
        return ServerConfig.builder().dataRateGracePeriod(GRACE).bodyReadTimeout(LONG).writeTimeout(LONG)
                .headerReadTimeout(LONG).idleTimeout(LONG);
    }

    @Test
    void aClientThatStopsReadingIsCutByTheMinimumResponseRate() throws Exception {
        start(config().minResponseDataRate(MEGABYTE_PER_SECOND).build());
        try (RawHttpClient client = RawHttpClient.connect(server.port(), LONG, 4096)) {
            long start = System.nanoTime();
            client.send(GET_LARGE);
            Await.latch("the file handler to return", handlerReturned);
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(elapsedMillis >= GRACE.toMillis(), "cut after only " + elapsedMillis + " ms");
        }
        assertInstanceOf(IOException.class, handlerFailure.get());
        StatsSnapshot stats = server.awaitStats(s -> s.timeoutCloses() >= 1 && s.connectionsActive() == 0);
        assertEquals(1L, stats.protocolErrors().get(ProtocolError.RESPONSE_DATA_RATE), stats::toString);
        assertNull(stats.protocolErrors().get(ProtocolError.WRITE_TIMEOUT), stats::toString);
        assertEquals(1, stats.timeoutCloses(), stats::toString);
        assertEquals(0, stats.handlerExceptions(), stats::toString);
        assertTrue(stats.bytesSentZeroCopy() > 0, "the file went out by transferTo until the cut: " + stats);
        assertTrue(stats.bytesSentZeroCopy() < large.size(), stats::toString);
    }

    @Test
    void aClientThatStopsReadingIsCutByTheWriteTimeout() throws Exception {
        start(config().writeTimeout(Duration.ofSeconds(1)).build());
        try (RawHttpClient client = RawHttpClient.connect(server.port(), LONG, 4096)) {
            client.send(GET_LARGE);
            Await.latch("the file handler to return", handlerReturned);
        }
        assertInstanceOf(IOException.class, handlerFailure.get());
        StatsSnapshot stats = server.awaitStats(s -> s.timeoutCloses() >= 1 && s.connectionsActive() == 0);
        assertEquals(1L, stats.protocolErrors().get(ProtocolError.WRITE_TIMEOUT), stats::toString);
        assertNull(stats.protocolErrors().get(ProtocolError.RESPONSE_DATA_RATE), stats::toString);
        assertEquals(0, stats.handlerExceptions(), stats::toString);
    }

    @Test
    void aClientReadingSteadilyAboveTheMinimumRateIsNotCut() throws Exception {
        // Each piece of the transfer shows its progress: a client reading at four times the minimum rate, though
        // never fast enough to keep the socket buffers empty, gets the whole file.
        start(config().minResponseDataRate(MEGABYTE_PER_SECOND).build());
        try (RawHttpClient client = RawHttpClient.connect(server.port(), LONG)) {
            client.send("GET /paced.bin HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            InputStream in = client.socket().getInputStream();
            byte[] buf = new byte[64 * 1024];
            long total = 0;
            long unpaced = 0;
            for (int n; (n = in.read(buf)) >= 0; ) {
                total += n;
                unpaced += n;
                if (unpaced >= buf.length) {
                    unpaced -= buf.length;
                    Thread.sleep(16); // the client's pace, not a synchronisation: about 4 MB/s
                }
            }
            assertTrue(total > paced.size(), "response cut after " + total + " bytes");
        }
        Await.latch("the file handler to return", handlerReturned);
        assertNull(handlerFailure.get());
        StatsSnapshot stats = server.awaitStats(s -> s.bytesSentZeroCopy() >= paced.size() / 2);
        assertFalse(stats.protocolErrors().containsKey(ProtocolError.RESPONSE_DATA_RATE), stats::toString);
    }

    @Test
    void aClientThatResetsMidFileIsAClientEventLoggedAtDebugAndLeavesNoFileOpen() throws Exception {
        start(config().build());
        Logger engine = Logger.getLogger("dev.weft.httpserver");
        Level previous = engine.getLevel();
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (!r.getLoggerName().equals("dev.weft.httpserver.access")) {
                    records.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        engine.setLevel(Level.FINE);
        engine.addHandler(capture);
        try {
            try (RawHttpClient client = RawHttpClient.connect(server.port(), LONG, 16 * 1024)) {
                client.send(GET_LARGE);
                InputStream in = client.socket().getInputStream();
                byte[] buf = new byte[64 * 1024];
                long total = 0;
                while (total < 2 * 1024 * 1024) {
                    int n = in.read(buf);
                    assertTrue(n > 0, "the response ended after " + total + " bytes");
                    total += n;
                }
                client.socket().setSoLinger(true, 0); // close with a reset, as a client that dies does
            }
            Await.latch("the file handler to return", handlerReturned);
            assertInstanceOf(IOException.class, handlerFailure.get());
            StatsSnapshot stats = server.awaitStats(s -> s.connectionsActive() == 0 && s.exchangesActive() == 0
                    && s.protocolErrors().containsKey(ProtocolError.RESPONSE_ABORTED));
            assertEquals(1L, stats.protocolErrors().get(ProtocolError.RESPONSE_ABORTED), stats::toString);
            assertEquals(0, stats.handlerExceptions(), stats::toString);
            assertEquals(0, stats.timeoutCloses(), stats::toString);
            long handles = large.openHandles();
            if (handles >= 0) {
                Await.until("the file to be closed", () -> {
                    try {
                        return large.openHandles() == 0;
                    } catch (IOException e) {
                        return false;
                    }
                });
            }
            Await.until("the client event to be logged", () -> records.stream().anyMatch(
                    r -> r.getMessage() != null && r.getMessage().contains("went away before it had the response")));
        } finally {
            engine.removeHandler(capture);
            engine.setLevel(previous);
        }
        List<String> loud = records.stream().filter(r -> r.getLevel().intValue() > Level.FINE.intValue())
                .filter(r -> !r.getLoggerName().equals("dev.weft.httpserver.clients")) // the INFO summary of them
                .map(r -> r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage()).toList();
        assertEquals(List.of(), loud, "a client going away is logged at DEBUG only");
        List<String> debug = records.stream().filter(r -> r.getLevel() == Level.FINE)
                .map(LogRecord::getMessage).toList();
        assertTrue(debug.stream().anyMatch(m -> m.contains("client broke off GET /large.bin")), debug::toString);
    }
}
