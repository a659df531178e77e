package dev.weft.httpserver.core;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;

/**
 * {@code count} bytes of an open file from {@code position}: a response body, or a part of one, that can go to
 * the socket straight from the file ({@link ConnectionOutput#write(FileRegion)}) or be copied through the heap
 * where it cannot. Reads never move the channel's own position. The file belongs to the caller, who closes it.
 *
 * @param file     the open file, readable
 * @param position where the region starts, not negative
 * @param count    how many bytes, not negative
 */
public record FileRegion(FileChannel file, long position, long count) {

    /** The largest piece copied through the heap at a time. */
    private static final int COPY_PIECE = 64 * 1024;

    public FileRegion {
        Objects.requireNonNull(file, "file");
        if (position < 0 || count < 0) {
            throw new IllegalArgumentException("negative position or count: " + position + ", " + count);
        }
    }

    /**
     * Copies the region to {@code out} through a heap buffer of at most {@value #COPY_PIECE} bytes.
     *
     * @throws EOFException if the file ends before the region does (it shrank after its size was taken)
     */
    public void copyTo(OutputStream out) throws IOException {
        if (count == 0) {
            return;
        }
        byte[] buffer = new byte[(int) Math.min(count, COPY_PIECE)];
        ByteBuffer bb = ByteBuffer.wrap(buffer);
        long pos = position;
        long remaining = count;
        while (remaining > 0) {
            bb.clear().limit((int) Math.min(buffer.length, remaining));
            int n = file.read(bb, pos);
            if (n < 0) {
                throw endedEarly(remaining);
            }
            out.write(buffer, 0, n);
            pos += n;
            remaining -= n;
        }
    }

    /**
     * Reads the whole region into {@code b} from {@code off}; the region is no longer than {@code b} has room for.
     *
     * @throws EOFException if the file ends before the region does
     */
    void readInto(byte[] b, int off) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(b, off, (int) count);
        long pos = position;
        while (bb.hasRemaining()) {
            int n = file.read(bb, pos);
            if (n < 0) {
                throw endedEarly(bb.remaining());
            }
            pos += n;
        }
    }

    static EOFException endedEarly(long missing) {
        return new EOFException("the file ended " + missing + " bytes before the end of the region sent");
    }
}
