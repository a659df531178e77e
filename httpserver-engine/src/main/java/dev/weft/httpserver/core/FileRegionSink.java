package dev.weft.httpserver.core;

import java.io.IOException;

/**
 * A response body stream that takes a {@link FileRegion} as body bytes itself, framed as its other bytes are,
 * so that the region can go from the file to the socket without passing through the heap where the connection
 * allows it. Streams that are not sinks get the region copied into them.
 */
public interface FileRegionSink {

    /**
     * Writes the region's bytes as the next body bytes, as {@code write} would write the same bytes.
     *
     * @throws IOException as {@code write} would (too many bytes, a closed stream, a failed connection), or if
     *                     the file ends before the region does
     */
    void write(FileRegion region) throws IOException;
}
