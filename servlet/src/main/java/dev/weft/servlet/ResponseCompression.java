package dev.weft.servlet;

import java.util.List;
import java.util.Objects;

/**
 * Gzip compression of response bodies: a body is compressed when the client accepts {@code gzip} and is not an
 * excluded user agent, the request is not HEAD, the status may carry a body, the application set no
 * {@code Content-Encoding} or {@code Content-Range}, the {@code Content-Type} (parameters ignored) matches one of
 * {@link #mimeTypes()} ({@code text/*} style wildcards allowed), and the length, when known, is at least
 * {@link #minResponseSize()}; a streamed body of unknown length is compressed when its type matches. Compressed
 * bodies are streamed (no {@code Content-Length}) with {@code Vary: Accept-Encoding}. Immutable.
 *
 * @param mimeTypes          compressible media types
 * @param minResponseSize    the smallest known body length worth compressing, in bytes
 * @param excludedUserAgents user agents never sent compressed bodies (a regular expression or the exact value)
 */
public record ResponseCompression(List<String> mimeTypes, long minResponseSize, List<String> excludedUserAgents) {

    /** Copies the lists and validates the size. */
    public ResponseCompression {
        mimeTypes = List.copyOf(Objects.requireNonNull(mimeTypes, "mime types"));
        excludedUserAgents = List.copyOf(Objects.requireNonNull(excludedUserAgents, "excluded user agents"));
        if (minResponseSize < 0) {
            throw new IllegalArgumentException("minResponseSize must not be negative: " + minResponseSize);
        }
    }

    /** Spring Boot's defaults: common text types, 2 KiB, no excluded user agent. */
    public static ResponseCompression defaults() {
        return new ResponseCompression(List.of("text/html", "text/xml", "text/plain", "text/css", "text/javascript",
                "application/javascript", "application/json", "application/xml"), 2048, List.of());
    }
}
