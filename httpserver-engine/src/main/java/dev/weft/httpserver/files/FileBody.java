package dev.weft.httpserver.files;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.Weft;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The body of a file response with several ranges: lays out {@code multipart/byteranges} (RFC 9110 §14.6) and
 * writes it, each part's bytes sent from the file by {@link Weft#sendFile} (without copying on cleartext
 * HTTP/1.1), so memory stays flat whatever the file's size. Used by one exchange's thread.
 */
final class FileBody {

    private FileBody() {
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

        /** Writes every part to {@code out}, the response body of {@code exchange}. */
        void write(FileChannel file, List<ByteRanges.Range> ranges, HttpExchange exchange, OutputStream out)
                throws IOException {
            for (int i = 0; i < ranges.size(); i++) {
                out.write(heads.get(i));
                Weft.sendFile(exchange, file, ranges.get(i).first(), ranges.get(i).length());
            }
            out.write(closing);
        }
    }
}
