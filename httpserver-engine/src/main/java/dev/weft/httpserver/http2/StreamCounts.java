package dev.weft.httpserver.http2;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * How many streams of one connection are open, count against our SETTINGS_MAX_CONCURRENT_STREAMS (every
 * stream not closed, half-closed ones included, RFC 9113 §5.1.2), and still have a handler at work. The reader
 * and the stream threads update them from different cores.
 */
final class StreamCounts {

    // Padded so that counters updated from different cores share no cache line.
    private final PaddedCounter open = new PaddedCounter();
    private final PaddedCounter counted = new PaddedCounter();
    private final PaddedCounter handlers = new PaddedCounter();

    /** Streams not yet closed (§5.1). */
    int open() {
        return open.get();
    }

    /** Whether a new stream must be refused: the limit is reached, or too many handlers are still busy. */
    boolean atLimit(int maxConcurrentStreams) {
        return counted.get() >= maxConcurrentStreams || handlers.get() >= 2 * maxConcurrentStreams;
    }

    /** A stream was opened and its handler started. */
    void opened() {
        open.incrementAndGet();
        counted.incrementAndGet();
        handlers.incrementAndGet();
    }

    /** The stream stops counting against the limit (once; closing it does so too). */
    void leaveCount(StreamLifecycle stream) {
        if (stream.leaveStreamCount()) {
            counted.decrementAndGet();
        }
    }

    /**
     * A stream closed.
     *
     * @return the streams still open
     */
    int closed(StreamLifecycle stream) {
        leaveCount(stream);
        return open.decrementAndGet();
    }

    /**
     * A stream's handler is done with its exchange.
     *
     * @return the exchanges still running
     */
    int handlerEnded() {
        return handlers.decrementAndGet();
    }

    /**
     * Exchanges still running. A connection without any is idle even if streams are open: they only wait for
     * the rest of a request whose response is complete.
     */
    int running() {
        return handlers.get();
    }

    @Override
    public String toString() {
        return counted.get() + " open, " + handlers.get() + " handlers running";
    }

    /** An {@link AtomicInteger} that fills its own cache line (no false sharing). */
    @SuppressWarnings("unused")
    private static final class PaddedCounter extends AtomicInteger {
        private static final long serialVersionUID = 1L;

        private long p1, p2, p3, p4, p5, p6, p7;
    }
}
