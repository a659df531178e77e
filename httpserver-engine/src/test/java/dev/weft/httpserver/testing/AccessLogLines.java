package dev.weft.httpserver.testing;

import dev.weft.httpserver.accesslog.LoggerDestination;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The lines of the access log ({@value LoggerDestination#LOGGER_NAME}) while open, kept from the console; {@link #close()}
 * gives the logger back its previous level and handlers.
 */
public final class AccessLogLines implements AutoCloseable {

    private final Logger logger = Logger.getLogger(LoggerDestination.LOGGER_NAME);
    private final Level previousLevel = logger.getLevel();
    private final boolean previousUseParent = logger.getUseParentHandlers();
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final Handler capture = new Handler() {
        private final SimpleFormatter formatter = new SimpleFormatter();

        @Override
        public void publish(LogRecord record) {
            lines.add(formatter.formatMessage(record));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private AccessLogLines() {
        logger.setLevel(Level.INFO);
        logger.setUseParentHandlers(false);
        logger.addHandler(capture);
    }

    /** Starts capturing. */
    public static AccessLogLines capture() {
        return new AccessLogLines();
    }

    /**
     * The lines logged since the last call, up to and including the first that contains {@code text}, one per
     * line; fails if no such line comes within 10 s.
     */
    public String until(String text) throws InterruptedException {
        StringBuilder seen = new StringBuilder();
        for (String l; (l = lines.poll(10, TimeUnit.SECONDS)) != null; ) {
            seen.append(l).append('\n');
            if (l.contains(text)) {
                return seen.toString();
            }
        }
        return fail("no access log line containing " + text + " in:\n" + seen);
    }

    /**
     * The lines logged since the last call, up to the moment each of {@code texts} has appeared in one of them,
     * in whatever order (exchanges on different connections end in any order); fails if that takes over 10 s.
     */
    public String untilAll(String... texts) throws InterruptedException {
        java.util.Set<String> missing = new java.util.LinkedHashSet<>(java.util.List.of(texts));
        StringBuilder seen = new StringBuilder();
        for (String l; !missing.isEmpty() && (l = lines.poll(10, TimeUnit.SECONDS)) != null; ) {
            seen.append(l).append('\n');
            missing.removeIf(l::contains);
        }
        return missing.isEmpty() ? seen.toString() : fail("no access log line containing " + missing + " in:\n" + seen);
    }

    @Override
    public void close() {
        logger.removeHandler(capture);
        logger.setUseParentHandlers(previousUseParent);
        logger.setLevel(previousLevel);
    }
}
