package dev.weft.httpserver.forms;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads a {@code multipart/form-data} body (RFC 7578 over RFC 2046 §5.1) as it arrives: one part at a time, each
 * part's content a stream, so a large upload never sits in memory. Preamble and epilogue are ignored; every
 * count and size is bounded by {@link MultipartLimits}. Malformed input fails with a {@link FormException} of
 * status {@code 400}, input over a limit with {@code 413}. Not thread-safe: one reader per request, on the
 * thread that handles it.
 *
 * <pre>{@code
 * MultipartReader reader = MultipartReader.of(exchange, MultipartLimits.defaults());
 * for (MultipartPart part; (part = reader.next()) != null; ) {
 *     if (part.filename().isPresent()) {
 *         try (InputStream in = part.body()) { in.transferTo(out); }
 *     } else {
 *         String value = part.text();
 *     }
 * }
 * }</pre>
 */
public final class MultipartReader {

    private final DelimitedInput input;
    private final MultipartLimits limits;
    private boolean started;
    private boolean finished;
    private int parts;
    private MultipartPart current;

    /** A reader of {@code in} delimited by {@code boundary} (as given in the Content-Type, unquoted). */
    public MultipartReader(InputStream in, String boundary, MultipartLimits limits) throws FormException {
        checkBoundary(boundary);
        this.input = new DelimitedInput(in, boundary, limits.maxTotalSize());
        this.limits = limits;
    }

    /**
     * A reader of the exchange's request body, which must be {@code multipart/form-data} with a valid boundary
     * ({@code 415} or {@code 400} otherwise); a declared length over the total limit fails at once ({@code 413}).
     */
    public static MultipartReader of(HttpExchange exchange, MultipartLimits limits) throws FormException {
        String type = exchange.getRequestHeaders().getFirst("Content-Type");
        String boundary = boundary(type);
        String length = exchange.getRequestHeaders().getFirst("Content-Length");
        if (length != null && length.length() < 19 && Long.parseLong(length.strip()) > limits.maxTotalSize()) {
            throw FormException.tooLarge("multipart body larger than " + limits.maxTotalSize() + " bytes");
        }
        return new MultipartReader(exchange.getRequestBody(), boundary, limits);
    }

    /**
     * The boundary of a {@code multipart/form-data} Content-Type value (quoted or not).
     *
     * @throws FormException {@code 415} for another media type, {@code 400} for a missing or invalid boundary
     */
    public static String boundary(String contentType) throws FormException {
        if (contentType == null) {
            throw new FormException(415, "expected multipart/form-data, got no Content-Type");
        }
        HeaderParameters type = HeaderParameters.parse(contentType);
        if (!type.value().equals("multipart/form-data")) {
            throw new FormException(415, "expected multipart/form-data, got " + contentType);
        }
        String boundary = type.get("boundary");
        if (boundary == null) {
            throw FormException.malformed("multipart/form-data without a boundary");
        }
        checkBoundary(boundary);
        return boundary;
    }

    /**
     * The next part, or null after the last one. The previous part's unread content is skipped (and still
     * counted against the limits).
     */
    public MultipartPart next() throws IOException {
        if (finished) {
            return null;
        }
        if (current != null) {
            current.skipRest();
            current = null;
        } else if (!started) {
            skipContent(); // the preamble
        }
        started = true;
        if (input.consumeDelimiter()) {
            finished = true;
            return null;
        }
        if (++parts > limits.maxParts()) {
            throw FormException.tooLarge("more than " + limits.maxParts() + " multipart parts");
        }
        Headers headers = readHeaders();
        String disposition = headers.getFirst("Content-Disposition");
        if (disposition == null) {
            throw FormException.malformed("multipart part without Content-Disposition (RFC 7578 §4.2)");
        }
        HeaderParameters cd = HeaderParameters.parse(disposition);
        String name = cd.get("name");
        if (!cd.value().equals("form-data") || name == null) {
            throw FormException.malformed("part's Content-Disposition is not form-data with a name: " + disposition);
        }
        String filename = cd.get("filename");
        String extended = cd.get("filename*");
        if (extended != null) {
            String decoded = HeaderParameters.decodeExtValue(extended);
            if (decoded != null) {
                filename = decoded;
            }
        }
        current = new MultipartPart(this, headers, name, filename, limits.maxPartSize());
        return current;
    }

    /** Content of the current part for its stream; -1 at its end. */
    int readContent(byte[] b, int off, int len) throws IOException {
        return input.readContent(b, off, len);
    }

    boolean isCurrent(MultipartPart part) {
        return current == part;
    }

    private void skipContent() throws IOException {
        byte[] scratch = new byte[8192];
        while (input.readContent(scratch, 0, scratch.length) >= 0) {
            // discard
        }
    }

    /** The part's header section (RFC 2046 §5.1.1: fields, then an empty line; CRLF line ends only). */
    private Headers readHeaders() throws IOException {
        Headers headers = new Headers();
        int budget = limits.maxPartHeaderSize();
        ByteArrayOutputStream line = new ByteArrayOutputStream(128);
        while (true) {
            line.reset();
            while (true) {
                int c = input.readByte();
                if (c < 0) {
                    throw FormException.malformed("multipart body ended inside a part's header section");
                }
                budget = spend(budget);
                if (c == '\r') {
                    if (input.readByte() != '\n') {
                        throw FormException.malformed("bare CR in a multipart part header");
                    }
                    budget = spend(budget);
                    break;
                }
                if (c == '\n' || c == 0) {
                    throw FormException.malformed("bare LF or NUL in a multipart part header");
                }
                line.write(c);
            }
            if (line.size() == 0) {
                return headers;
            }
            String field = PercentEncoding.strict(line.toByteArray(), line.size(), StandardCharsets.UTF_8);
            int colon = field.indexOf(':');
            if (colon <= 0 || !HeaderParameters.isToken(field.substring(0, colon))) {
                throw FormException.malformed("malformed multipart part header: " + field);
            }
            headers.add(field.substring(0, colon), field.substring(colon + 1).strip());
        }
    }

    private int spend(int budget) throws FormException {
        if (budget == 0) {
            throw FormException.tooLarge("multipart part header section larger than " + limits.maxPartHeaderSize()
                    + " bytes");
        }
        return budget - 1;
    }

    /** RFC 2046 §5.1.1: 1 to 70 characters of bchars, not ending with a space. */
    private static void checkBoundary(String boundary) throws FormException {
        if (boundary.isEmpty() || boundary.length() > 70 || boundary.endsWith(" ")) {
            throw FormException.malformed("multipart boundary must be 1 to 70 characters, not ending in a space");
        }
        for (int i = 0; i < boundary.length(); i++) {
            char c = boundary.charAt(i);
            boolean bchar = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
                    || "'()+_,-./:=? ".indexOf(c) >= 0;
            if (!bchar) {
                throw FormException.malformed("character not allowed in a multipart boundary: " + boundary);
            }
        }
    }
}
