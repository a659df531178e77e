package dev.weft.httpserver.accesslog;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.IntConsumer;

/**
 * The access log of one server: each finished exchange becomes a line in the configured {@link LogPattern},
 * formatted as ASCII bytes on the exchange's thread and handed to a {@link LineWriter}, which writes it to a
 * rotating file or the {@value LoggerDestination#LOGGER_NAME} logger off the request path. An HTTP/1.1 connection
 * collects the lines of a batch of pipelined requests in its {@link Batch} and hands them over together when it
 * writes the batch's responses. A server with the log off has none.
 */
public final class AccessLog {

    /** How long {@link #close()} waits for the queued lines to be written. */
    private static final Duration CLOSE_LIMIT = Duration.ofSeconds(10);
    /** A batch larger than this is handed over at once, whether or not more requests follow. */
    private static final int BATCH_BYTES = 8 * 1024;

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
     * @param onDrop        told how many lines were dropped
     */
    public AccessLog(LogPattern pattern, Path file, Rotation rotation, int capacity, Duration flushInterval,
                     IntConsumer onDrop) {
        this(pattern, file == null ? new LoggerDestination() : new RotatingFile(file, rotation), capacity,
                flushInterval, onDrop);
    }

    AccessLog(LogPattern pattern, Destination destination, int capacity, Duration flushInterval,
              IntConsumer onDrop) {
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

    /** Formats {@code entry} and queues its line on its own; drops it if the queue is full. Never blocks. */
    public void log(LogEntry entry) {
        LineBuffer line = new LineBuffer(256);
        appendLine(entry, line);
        writer.offer(line.take());
    }

    private void appendLine(LogEntry entry, LineBuffer lines) {
        pattern.format(entry, lines);
        lines.endLine();
    }

    /** A batch for one connection's lines, handed over by {@link Batch#submit()}. */
    public Batch batch() {
        return new Batch();
    }

    /** Writes every queued line, flushes and closes the file. Idempotent. */
    public void close() {
        writer.close(CLOSE_LIMIT);
    }

    /** Lines dropped because the queue was full (or the log closed). */
    public long dropped() {
        return writer.dropped();
    }

    /**
     * The lines of one connection's exchanges not yet handed to the writer; used by the connection's thread. The
     * connection submits them when it writes its responses out, so that a batch of pipelined requests costs the
     * writer's queue one hand-over, not one per line.
     */
    public final class Batch {

        private final LineBuffer lines = new LineBuffer(512);

        private Batch() {
        }

        /** Whether a line would be kept: callers skip building the entry when not. */
        public boolean enabled() {
            return destination.accepts();
        }

        /** Formats {@code entry} into the batch; hands the batch over if it has grown large. */
        public void add(LogEntry entry) {
            appendLine(entry, lines);
            if (lines.length() >= BATCH_BYTES) {
                submit();
            }
        }

        /** Queues the lines added since the last submit (dropping them if the queue is full). Never blocks. */
        public void submit() {
            if (lines.lines() > 0) {
                writer.offer(lines.take());
            }
        }
    }
}
