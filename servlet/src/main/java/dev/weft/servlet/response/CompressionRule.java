package dev.weft.servlet.response;

import com.sun.net.httpserver.Headers;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * When a response body is gzipped (see the embedding API's {@code ResponseCompression}): the client accepts
 * gzip (RFC 9110 §12.5.3, {@code q=0} refuses) and is not excluded, the request is not HEAD, the status may
 * carry a body, the body is not encoded or a range already, its type matches, and its known length is at least
 * the minimum. Immutable.
 */
public final class CompressionRule {

    private final List<String> mimeTypes;
    private final long minSize;
    private final List<Pattern> excluded;

    /**
     * @param mimeTypes          compressible media types, lower case ({@code text/*} wildcards allowed)
     * @param minSize            the smallest known length worth compressing
     * @param excludedUserAgents regular expressions (or exact values) of user agents never compressed for
     */
    public CompressionRule(List<String> mimeTypes, long minSize, List<String> excludedUserAgents) {
        this.mimeTypes = mimeTypes.stream().map(t -> t.strip().toLowerCase(Locale.ROOT)).toList();
        this.minSize = minSize;
        List<Pattern> patterns = new ArrayList<>();
        for (String agent : excludedUserAgents) {
            try {
                patterns.add(Pattern.compile(agent));
            } catch (PatternSyntaxException e) {
                patterns.add(Pattern.compile(Pattern.quote(agent)));
            }
        }
        this.excluded = List.copyOf(patterns);
    }

    /**
     * Whether to gzip this response.
     *
     * @param length the body's length when known, else -1
     */
    boolean applies(String method, Headers request, int status, Headers response, String contentType, long length) {
        if (method.equals("HEAD") || status < 200 || status == 204 || status == 304) {
            return false;
        }
        if (length >= 0 && length < Math.max(1, minSize)) {
            return false;
        }
        if (response.containsKey("Content-Encoding") || response.containsKey("Content-Range") || contentType == null) {
            return false;
        }
        return typeMatches(contentType) && acceptsGzip(request.get("Accept-Encoding"))
                && !isExcluded(request.getFirst("User-Agent"));
    }

    private boolean typeMatches(String contentType) {
        int semi = contentType.indexOf(';');
        String type = (semi < 0 ? contentType : contentType.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
        for (String t : mimeTypes) {
            if (t.equals(type) || t.endsWith("/*") && type.startsWith(t.substring(0, t.length() - 1))) {
                return true;
            }
        }
        return false;
    }

    private static boolean acceptsGzip(List<String> fields) {
        if (fields == null) {
            return false;
        }
        for (String field : fields) {
            for (String coding : field.split(",")) {
                String[] parts = coding.split(";");
                String name = parts[0].strip().toLowerCase(Locale.ROOT);
                if (!name.equals("gzip") && !name.equals("*")) {
                    continue;
                }
                double q = 1;
                for (int i = 1; i < parts.length; i++) {
                    String p = parts[i].strip();
                    if (p.startsWith("q=")) {
                        try {
                            q = Double.parseDouble(p.substring(2));
                        } catch (NumberFormatException e) {
                            q = 0;
                        }
                    }
                }
                if (q > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    private boolean isExcluded(String userAgent) {
        if (userAgent == null) {
            return false;
        }
        for (Pattern p : excluded) {
            if (p.matcher(userAgent).matches()) {
                return true;
            }
        }
        return false;
    }
}
