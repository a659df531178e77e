package dev.weft.servlet.response;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads a region of a file through the heap, where its bytes must be seen: into the response buffer, or into a
 * stream that transforms them (gzip). Never moves the channel's position. Stateless.
 */
final class FileRegionCopy {

    private static final int PIECE = 64 * 1024;

    private FileRegionCopy() {
    }

    /**
     * Reads {@code len} bytes from {@code position} into {@code b} at {@code off}.
     *
     * @throws EOFException if the file ends first
     */
    static void readFully(FileChannel file, long position, byte[] b, int off, int len) throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(b, off, len);
        for (long pos = position; bb.hasRemaining(); ) {
            int n = file.read(bb, pos);
            if (n < 0) {
                throw endedEarly(bb.remaining());
            }
            pos += n;
        }
    }

    /**
     * Copies {@code count} bytes from {@code position} to {@code out}, in pieces of at most 64 KiB.
     *
     * @throws EOFException if the file ends first
     */
    static void copy(FileChannel file, long position, long count, OutputStream out) throws IOException {
        byte[] piece = new byte[(int) Math.min(count, PIECE)];
        long pos = position;
        for (long left = count; left > 0; ) {
            int n = (int) Math.min(piece.length, left);
            readFully(file, pos, piece, 0, n);
            out.write(piece, 0, n);
            pos += n;
            left -= n;
        }
    }

    private static EOFException endedEarly(long missing) {
        return new EOFException("the file ended " + missing + " bytes before the end of the region sent");
    }
}
