package dev.weft.httpserver.files;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Copies regions of an open file to a response body through one fixed buffer, so memory stays flat whatever the
 * file's size; and lays out {@code multipart/byteranges} (RFC 9110 §14.6) for several ranges. Used by one
 * exchange's thread.
 */
final class FileBody {

    private static final int BUFFER_SIZE = 64 * 1024;

    private FileBody() {
    }

    /**
     * Copies {@code length} bytes from {@code position}.
     *
     * @throws IOException also when the file ends early (it shrank after its size was sent)
     */
    static void copy(FileChannel file, long position, long length, OutputStream out, byte[] buffer)
            throws IOException {
        ByteBuffer bb = ByteBuffer.wrap(buffer);
        long pos = position;
        long remaining = length;
        while (remaining > 0) {
            bb.clear().limit((int) Math.min(buffer.length, remaining));
            int n = file.read(bb, pos);
            if (n < 0) {
                throw new IOException("file ended " + remaining + " bytes early");
            }
            out.write(buffer, 0, n);
            pos += n;
            remaining -= n;
        }
    }

    /** A fresh buffer for {@link #copy}. */
    static byte[] buffer() {
        return new byte[BUFFER_SIZE];
    }

    /** The parts of a {@code multipart/byteranges} body: the head of each part, then the closing delimiter. */
    record Multipart(String boundary, List<byte[]> heads, byte[] closing, long contentLength) {

        /** Lays out {@code ranges} of a representation of {@code total} bytes typed {@code contentType}. */
        static Multipart of(List<ByteRanges.Range> ranges, long total, String contentType) {
            String boundary = "weft-" + Long.toHexString(ThreadLocalRandom.current().nextLong())
                    + Long.toHexString(ThreadLocalRandom.current().nextLong());
            List<byte[]> heads = new ArrayList<>(ranges.size());
            long length = 0;
            for (ByteRanges.Range r : ranges) {
                byte[] head = ("\r\n--" + boundary + "\r\nContent-Type: " + contentType + "\r\nContent-Range: bytes "
                        + r.first() + "-" + r.last() + "/" + total + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                heads.add(head);
                length += head.length + r.length();
            }
            byte[] closing = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
            return new Multipart(boundary, List.copyOf(heads), closing, length + closing.length);
        }

        /** Writes every part. */
        void write(FileChannel file, List<ByteRanges.Range> ranges, OutputStream out) throws IOException {
            byte[] buffer = buffer();
            for (int i = 0; i < ranges.size(); i++) {
                out.write(heads.get(i));
                copy(file, ranges.get(i).first(), ranges.get(i).length(), out, buffer);
            }
            out.write(closing);
        }
    }
}
