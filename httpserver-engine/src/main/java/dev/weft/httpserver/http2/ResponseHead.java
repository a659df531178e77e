package dev.weft.httpserver.http2;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.core.DateCache;
import dev.weft.httpserver.core.ResponseFraming;
import dev.weft.httpserver.hpack.HeaderField;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds a response's HTTP/2 field sections from the handler's {@link Headers}: the {@code :status}
 * pseudo-field, lower-case names, no connection-specific fields (RFC 9113 §8.2.2), and the fields the
 * {@link ResponseFraming} decided ({@code content-length}, {@code date}, {@code server}).
 */
final class ResponseHead {

    /** Decimal strings of 0..1023: status codes and short content lengths, shared. */
    private static final String[] SMALL_NUMBERS = new String[1024];

    static {
        for (int i = 0; i < SMALL_NUMBERS.length; i++) {
            SMALL_NUMBERS[i] = Integer.toString(i);
        }
    }

    private ResponseHead() {
    }

    /** The response head as HTTP/2 fields, with what {@code framing} decided the server adds. */
    static List<HeaderField> fields(int status, Headers headers, ResponseFraming framing) {
        List<HeaderField> fields = new ArrayList<>(headers.size() + 4);
        fields.add(new HeaderField(":status", SMALL_NUMBERS[status]));
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            String name = e.getKey();
            switch (name) {
                case "Content-length" -> {
                    if (!framing.keepHandlerLength()) {
                        continue;
                    }
                }
                case "Connection", "Keep-alive", "Proxy-connection", "Transfer-encoding", "Upgrade" -> {
                    continue;
                }
                default -> {
                }
            }
            String lower = FieldNames.lowerCase(name);
            for (String v : e.getValue()) {
                fields.add(new HeaderField(lower, v));
            }
        }
        long contentLength = framing.contentLength();
        if (contentLength >= 0) {
            fields.add(new HeaderField("content-length", contentLength < SMALL_NUMBERS.length
                    ? SMALL_NUMBERS[(int) contentLength] : Long.toString(contentLength)));
        }
        if (framing.addDate()) {
            fields.add(new HeaderField("date", DateCache.value()));
        }
        if (framing.server() != null) {
            fields.add(new HeaderField("server", framing.server()));
        }
        return fields;
    }

    /** A trailer section (validated already) as HTTP/2 fields with lower-case names. */
    static List<HeaderField> trailers(Headers trailers) {
        List<HeaderField> fields = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : trailers.entrySet()) {
            String name = FieldNames.lowerCase(e.getKey());
            for (String v : e.getValue()) {
                fields.add(new HeaderField(name, v));
            }
        }
        return fields;
    }
}
