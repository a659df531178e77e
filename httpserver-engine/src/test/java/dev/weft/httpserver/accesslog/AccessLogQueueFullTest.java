package dev.weft.httpserver.accesslog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.httpserver.config.AccessLogConfig;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** A destination that cannot keep up costs lines, counted in the statistics, and never an exchange's time. */
class AccessLogQueueFullTest {

    @Test
    void exchangesCompleteWhileTheWriterIsStuckAndTheDroppedLinesAreCounted() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Handler blocking = new Handler() {
            @Override
            public void publish(LogRecord record) {
                stuck.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(LoggerDestination.LOGGER_NAME);
        Level level = logger.getLevel();
        boolean useParent = logger.getUseParentHandlers();
        logger.setLevel(Level.INFO);
        logger.setUseParentHandlers(false);
        logger.addHandler(blocking);
        ServerConfig config = ServerConfig.builder()
                .accessLog(AccessLogConfig.builder().enabled(true).queueCapacity(2).build()).build();
        try (TestServer server = TestServer.builder().config(config)
                .handle("/", exchange -> TestServer.respond(exchange, 200, "ok")).start();
             RawHttpClient client = server.connect()) {
            assertEquals(200, client.send(RawHttpClient.get("/first")).readResponse().status());
            Await.latch("the writer stuck on the first line", stuck);

            for (int i = 0; i < 10; i++) {
                assertEquals(200, client.send(RawHttpClient.get("/more/" + i)).readResponse().status());
            }

            // 2 lines wait in the queue; of the other 8, those logged by now are dropped (the last may still be
            // on its way: a connection logs its exchange after the response has gone)
            StatsSnapshot s = server.awaitStats(x -> x.accessLogLinesDropped() >= 7);
            assertEquals(7, s.accessLogLinesDropped(), 1, s::toString);
            release.countDown();
        } finally {
            release.countDown();
            logger.removeHandler(blocking);
            logger.setUseParentHandlers(useParent);
            logger.setLevel(level);
        }
    }
}
