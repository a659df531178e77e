package dev.weft.httpserver.http1;

import java.nio.charset.StandardCharsets;

/**
 * Turns header-name bytes into the key form {@code com.sun.net.httpserver.Headers} uses (first letter upper
 * case, the rest lower case, e.g. {@code Content-length}), without allocating for common names.
 */
final class HeaderNames {

    private static final String[] COMMON = {
            "Host", "User-agent", "Accept", "Accept-encoding", "Accept-language", "Connection", "Content-length",
            "Content-type", "Transfer-encoding", "Expect", "Cookie", "Authorization", "Cache-control", "Origin",
            "Referer", "Upgrade", "If-none-match", "If-modified-since", "Range", "Te", "Trailer", "Pragma",
            "Sec-websocket-key", "Sec-websocket-version", "Sec-websocket-extensions", "Sec-websocket-protocol",
            "X-forwarded-for", "X-forwarded-proto", "X-request-id", "Keep-alive", "Proxy-authorization",
            "Forwarded", "Via", "Dnt", "Sec-fetch-mode", "Sec-fetch-site", "Sec-fetch-dest", "Priority"
    };
    private static final byte[][] COMMON_LOWER = new byte[COMMON.length][];

    static {
        for (int i = 0; i < COMMON.length; i++) {
            COMMON_LOWER[i] = COMMON[i].toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
        }
    }

    private HeaderNames() {
    }

    /** The normalised key for the token bytes {@code b[from..to)}. */
    static String normalize(byte[] b, int from, int to) {
        int len = to - from;
        for (int i = 0; i < COMMON_LOWER.length; i++) {
            byte[] c = COMMON_LOWER[i];
            if (c.length == len && equalsIgnoreCase(c, b, from)) {
                return COMMON[i];
            }
        }
        char[] chars = new char[len];
        for (int i = 0; i < len; i++) {
            int ch = b[from + i];
            if (i == 0) {
                chars[i] = (char) (ch >= 'a' && ch <= 'z' ? ch - 32 : ch);
            } else {
                chars[i] = (char) (ch >= 'A' && ch <= 'Z' ? ch + 32 : ch);
            }
        }
        return new String(chars);
    }

    private static boolean equalsIgnoreCase(byte[] lower, byte[] b, int from) {
        for (int i = 0; i < lower.length; i++) {
            int ch = b[from + i];
            if (ch >= 'A' && ch <= 'Z') {
                ch += 32;
            }
            if (ch != lower[i]) {
                return false;
            }
        }
        return true;
    }
}
