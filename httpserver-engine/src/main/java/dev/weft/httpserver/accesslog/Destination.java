package dev.weft.httpserver.accesslog;

import java.io.IOException;
import java.util.List;

/** Where access log lines end up; used by the one writer thread only. */
interface Destination {

    /** Whether lines would be kept at all; checked on the request path before a line is formatted. */
    default boolean accepts() {
        return true;
    }

    /** Opens the destination; called once before the first write, on the thread starting the server. */
    default void open() throws IOException {
    }

    /** Writes a batch of {@link Lines}, in order. */
    void write(List<Lines> batch) throws IOException;

    /** Makes what was written visible (to readers of the file). */
    default void flush() throws IOException {
    }

    /** Flushes and releases the destination. */
    default void close() throws IOException {
    }
}
