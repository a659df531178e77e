package dev.weft.httpserver.forms;

import com.sun.net.httpserver.Headers;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * One part of a {@code multipart/form-data} body: its header fields, its field name, the file name the client
 * sent (if any; client-supplied, never a safe path), and its content as a stream that ends at the part's end.
 * Valid until {@link MultipartReader#next()} is called again.
 */
public final class MultipartPart {

    private final MultipartReader reader;
    private final Headers headers;
    private final String name;
    private final String filename;
    private final long maxSize;
    private final InputStream body = new PartStream();
    private long read;

    MultipartPart(MultipartReader reader, Headers headers, String name, String filename, long maxSize) {
        this.reader = reader;
        this.headers = headers;
        this.name = name;
        this.filename = filename;
        this.maxSize = maxSize;
    }

    /** The part's header fields. */
    public Headers headers() {
        return headers;
    }

    /** The form field name ({@code name} parameter of {@code Content-Disposition}). */
    public String name() {
        return name;
    }

    /** The file name: {@code filename*} (RFC 8187) if present and decodable, else {@code filename}. */
    public Optional<String> filename() {
        return Optional.ofNullable(filename);
    }

    /** The part's media type; {@code text/plain} when absent (RFC 7578 §4.4). */
    public String contentType() {
        String type = headers.getFirst("Content-Type");
        return type == null ? "text/plain" : type;
    }

    /** The content; reading past {@link MultipartLimits#maxPartSize()} fails with {@code 413}. */
    public InputStream body() {
        return body;
    }

    /** The whole content as bytes (bounded by the part size limit). */
    public byte[] bytes() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        body.transferTo(out);
        return out.toByteArray();
    }

    /** The whole content as text in the charset of its Content-Type, else UTF-8 (RFC 7578 §4.5). */
    public String text() throws IOException {
        Charset charset = StandardCharsets.UTF_8;
        String type = headers.getFirst("Content-Type");
        if (type != null) {
            String cs = HeaderParameters.parse(type).get("charset");
            if (cs != null) {
                try {
                    charset = Charset.forName(cs);
                } catch (IllegalArgumentException e) {
                    throw new FormException(415, "unknown charset in part " + name + ": " + cs);
                }
            }
        }
        return new String(bytes(), charset);
    }

    void skipRest() throws IOException {
        byte[] scratch = new byte[8192];
        while (body.read(scratch, 0, scratch.length) >= 0) {
            // discard, still within the limits
        }
    }

    private final class PartStream extends InputStream {
        private boolean ended;

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (!reader.isCurrent(MultipartPart.this)) {
                throw new IOException("part " + name + " was passed: MultipartReader.next() was called");
            }
            if (ended) {
                return -1;
            }
            int n = reader.readContent(b, off, len);
            if (n < 0) {
                ended = true;
                return -1;
            }
            read += n;
            if (read > maxSize) {
                throw FormException.tooLarge("multipart part " + name + " larger than " + maxSize + " bytes");
            }
            return n;
        }

        @Override
        public void close() {
            // the request body stays open for the next part; MultipartReader.next() skips what is left
        }
    }
}
