package dev.weft.httpserver.accesslog;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The access log of one server: each finished exchange becomes a line in the configured {@link LogPattern},
 * formatted on the exchange's thread and handed to a {@link LineWriter}, which writes it to a rotating file or the
 * {@value LoggerDestination#LOGGER_NAME} logger off the request path. A server with the log off has none.
 */
public final class AccessLog {

    /** How long {@link #close()} waits for the queued lines to be written. */
    private static final Duration CLOSE_LIMIT = Duration.ofSeconds(10);

    private final LogPattern pattern;
    private final Destination destination;
    private final LineWriter writer;

    /**
     * A log not started yet.
     *
     * @param file          the file to append to, or {@code null} for the {@value LoggerDestination#LOGGER_NAME}
     *                      logger
     * @param rotation      how the file is rotated (unused for the logger)
     * @param capacity      most lines waiting to be written; more are dropped
     * @param flushInterval longest a line waits to be flushed to the file
     * @param onDrop        told of each dropped line
     */
    public AccessLog(LogPattern pattern, Path file, Rotation rotation, int capacity, Duration flushInterval,
                     Runnable onDrop) {
        this(pattern, file == null ? new LoggerDestination() : new RotatingFile(file, rotation), capacity,
                flushInterval, onDrop);
    }

    AccessLog(LogPattern pattern, Destination destination, int capacity, Duration flushInterval, Runnable onDrop) {
        this.pattern = pattern;
        this.destination = destination;
        this.writer = new LineWriter(destination, capacity, flushInterval, onDrop);
    }

    /**
     * Opens the file (or the logger) and starts the writer thread.
     *
     * @param name the writer thread's name
     * @throws IOException if the file cannot be created or opened
     */
    public void start(String name) throws IOException {
        writer.start(name);
    }

    /** Whether a line would be kept: callers skip building the entry when not. */
    public boolean enabled() {
        return destination.accepts();
    }

    /** Formats {@code entry} and queues its line; drops it if the queue is full. Never blocks. */
    public void log(LogEntry entry) {
        StringBuilder line = new StringBuilder(256);
        pattern.format(entry, line);
        writer.offer(line.toString());
    }

    /** Writes every queued line, flushes and closes the file. Idempotent. */
    public void close() {
        writer.close(CLOSE_LIMIT);
    }

    /** Lines dropped because the queue was full (or the log closed). */
    public long dropped() {
        return writer.dropped();
    }
}
