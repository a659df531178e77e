package dev.weft.httpserver.stats;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** At most one summary line per kind and interval, on a clock the test moves. */
class ClientEventSummaryTest {

    private static final long MINUTE = TimeUnit.MINUTES.toNanos(1);

    private final AtomicLong clock = new AtomicLong(1_000);
    private final ClientEventSummary summary = new ClientEventSummary(MINUTE, clock::get);
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Logger logger = Logger.getLogger(ClientEventSummary.LOGGER_NAME);
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel() == Level.INFO) {
                lines.add(r.getMessage());
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void capture() {
        logger.addHandler(capture);
        summary.server("test");
    }

    @AfterEach
    void release() {
        logger.removeHandler(capture);
    }

    @Test
    void theFirstEventOfAKindIsReportedAtOnce() {
        summary.record(ProtocolError.BAD_HOST);

        assertEquals(List.of("test: 1 client event bad_host (counted in the statistics; each is logged at DEBUG)"),
                lines);
    }

    @Test
    void furtherEventsWithinTheIntervalWaitForOneLine() {
        summary.record(ProtocolError.BAD_HOST);
        for (int i = 0; i < 1000; i++) {
            clock.addAndGet(MINUTE / 2000);
            summary.record(ProtocolError.BAD_HOST);
            summary.flush();
        }
        assertEquals(1, lines.size());

        clock.addAndGet(MINUTE / 2);
        summary.flush();

        assertEquals(2, lines.size());
        assertEquals("test: 1000 client events bad_host in the last 60 s (counted in the statistics; each is logged"
                + " at DEBUG)", lines.get(1));
    }

    @Test
    void kindsAreSummarisedEachOnItsOwn() {
        summary.record(ProtocolError.BAD_HOST);
        summary.record(ProtocolError.HTTP2_FLOOD);
        summary.record(ProtocolError.BAD_HOST);

        assertEquals(2, lines.size());
    }

    @Test
    void nothingIsWrittenWhenNothingHappened() {
        summary.record(ProtocolError.BAD_HOST);
        clock.addAndGet(10 * MINUTE);

        summary.flush();
        summary.flush();

        assertEquals(1, lines.size());
    }

    @Test
    void connectionsClosedEarlyWhenShortOfConnectionsAreSummarisedOnTheirOwnLine() {
        summary.recordLowResourcesClose();
        summary.recordLowResourcesClose();
        summary.record(ProtocolError.BAD_HOST);
        clock.addAndGet(MINUTE);
        summary.flush();

        assertEquals(List.of(
                "test: 1 connection closed early to make room, short of connections (counted in the statistics; "
                        + "each is logged at DEBUG)",
                "test: 1 client event bad_host (counted in the statistics; each is logged at DEBUG)",
                "test: 1 connection closed early to make room, short of connections in the last 60 s (counted in "
                        + "the statistics; each is logged at DEBUG)"), lines);
    }
}
