package dev.weft.spring.boot.reactive;

import com.sun.net.httpserver.Headers;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.web.server.Compression;
import org.springframework.util.InvalidMimeTypeException;
import org.springframework.util.MimeType;
import org.springframework.util.MimeTypeUtils;
import org.springframework.util.unit.DataSize;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Response compression settings ({@code server.compression.*}) and the rule deciding when a response is
 * gzipped: compression is enabled, the client accepts gzip and is not an excluded user agent, the request is
 * not {@code HEAD}, the status may carry a body (not 1xx, 204 or 304), the response is not already encoded
 * nor a range, its {@code Content-Type} (parameters ignored) matches one of {@link #mimeTypes()}, and its
 * length, when known, is at least {@link #minResponseSize()}. Streamed bodies of unknown length are
 * compressed when the type matches.
 *
 * @param enabled            whether compression is on
 * @param mimeTypes          the compressible content types (wildcards such as {@code text/*} allowed)
 * @param minResponseSize    the smallest known body length, in bytes, worth compressing
 * @param excludedUserAgents user agents never sent compressed bodies (exact value or regular expression)
 */
public record WeftCompression(boolean enabled, List<MimeType> mimeTypes, long minResponseSize,
                              List<String> excludedUserAgents) {

    /** No compression. */
    public static final WeftCompression DISABLED = new WeftCompression(false, List.of(), 0, List.of());

    public WeftCompression {
        mimeTypes = List.copyOf(mimeTypes);
        excludedUserAgents = List.copyOf(excludedUserAgents);
        if (minResponseSize < 0) {
            throw new IllegalArgumentException("minResponseSize must not be negative: " + minResponseSize);
        }
    }

    /** The settings of Spring Boot's {@link Compression}; {@link #DISABLED} when it is {@code null} or off. */
    public static WeftCompression from(@Nullable Compression compression) {
        if (compression == null || !compression.getEnabled()) {
            return DISABLED;
        }
        String[] types = compression.getAllMimeTypes();
        DataSize min = compression.getMinResponseSize();
        String[] agents = compression.getExcludedUserAgents();
        return new WeftCompression(true,
                types == null ? List.of() : Arrays.stream(types).map(MimeTypeUtils::parseMimeType).toList(),
                min == null ? 0 : min.toBytes(),
                agents == null ? List.of() : List.of(agents));
    }

    /**
     * Whether to gzip this response.
     *
     * @param contentLength the body length when known, else -1
     */
    boolean shouldCompress(String method, Headers requestHeaders, int status, Headers responseHeaders,
                           long contentLength) {
        if (!enabled || method.equals("HEAD") || status < 200 || status == 204 || status == 304) {
            return false;
        }
        if (contentLength >= 0 && contentLength < Math.max(1, minResponseSize)) {
            return false;
        }
        if (responseHeaders.containsKey("Content-Encoding") || responseHeaders.containsKey("Content-Range")) {
            return false;
        }
        return matchesMimeType(responseHeaders.getFirst("Content-Type"))
                && acceptsGzip(requestHeaders.get("Accept-Encoding"))
                && !isExcluded(requestHeaders.getFirst("User-Agent"));
    }

    private boolean matchesMimeType(@Nullable String contentType) {
        if (contentType == null) {
            return false;
        }
        MimeType type;
        try {
            type = MimeTypeUtils.parseMimeType(contentType);
        } catch (InvalidMimeTypeException ex) {
            return false;
        }
        for (MimeType candidate : mimeTypes) {
            if (candidate.includes(type)) {
                return true;
            }
        }
        return false;
    }

    private boolean isExcluded(@Nullable String userAgent) {
        if (userAgent == null) {
            return false;
        }
        for (String excluded : excludedUserAgents) {
            if (excluded.equals(userAgent) || matchesRegex(excluded, userAgent)) {
                return true;
            }
        }
        return false;
    }

    private static boolean matchesRegex(String regex, String value) {
        try {
            return Pattern.matches(regex, value);
        } catch (PatternSyntaxException ex) {
            return false;
        }
    }

    /** RFC 9110 §12.5.3: gzip (or {@code *}) listed with a non-zero weight; an explicit gzip entry wins. */
    static boolean acceptsGzip(@Nullable List<String> acceptEncoding) {
        if (acceptEncoding == null) {
            return false;
        }
        Double gzip = null;
        Double any = null;
        for (String field : acceptEncoding) {
            for (String element : field.split(",")) {
                String[] parts = element.split(";");
                String coding = parts[0].strip().toLowerCase(Locale.ROOT);
                double weight = weight(parts);
                if (coding.equals("gzip") || coding.equals("x-gzip")) {
                    gzip = gzip == null ? weight : Math.max(gzip, weight);
                } else if (coding.equals("*")) {
                    any = weight;
                }
            }
        }
        return gzip != null ? gzip > 0 : any != null && any > 0;
    }

    private static double weight(String[] parts) {
        for (int i = 1; i < parts.length; i++) {
            String param = parts[i].strip();
            if (param.length() > 1 && (param.charAt(0) == 'q' || param.charAt(0) == 'Q') && param.charAt(1) == '=') {
                try {
                    return Double.parseDouble(param.substring(2).strip());
                } catch (NumberFormatException ex) {
                    return 0;
                }
            }
        }
        return 1;
    }
}
