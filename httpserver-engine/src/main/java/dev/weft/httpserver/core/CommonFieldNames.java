package dev.weft.httpserver.core;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The field names clients send and applications ask for often enough to be worth knowing in advance, in the key
 * form of {@code com.sun.net.httpserver.Headers} (first letter upper case, the rest lower case). The HTTP/1.1
 * parser turns their bytes into these strings without allocating, and {@link RequestHeaders#normalize} finds
 * the key form of their usual spellings ({@code Content-Length}, {@code content-length}) with one lookup.
 */
public final class CommonFieldNames {

    /** The names, in key form. */
    public static final List<String> KEY_FORMS = List.of(
            "Host", "User-agent", "Accept", "Accept-encoding", "Accept-language", "Accept-charset", "Connection",
            "Content-length", "Content-type", "Content-encoding", "Transfer-encoding", "Expect", "Cookie",
            "Authorization", "Cache-control", "Origin", "Referer", "Upgrade", "Upgrade-insecure-requests",
            "If-none-match", "If-modified-since", "If-match", "If-unmodified-since", "If-range", "Range", "Te",
            "Trailer", "Pragma", "Sec-websocket-key", "Sec-websocket-version", "Sec-websocket-extensions",
            "Sec-websocket-protocol", "X-forwarded-for", "X-forwarded-proto", "X-forwarded-host",
            "X-forwarded-port", "X-real-ip", "X-request-id", "X-requested-with", "Keep-alive",
            "Proxy-authorization", "Forwarded", "Via", "Dnt", "Sec-fetch-mode", "Sec-fetch-site", "Sec-fetch-dest",
            "Sec-fetch-user", "Sec-ch-ua", "Sec-ch-ua-mobile", "Sec-ch-ua-platform", "Sec-purpose", "Priority",
            "Access-control-request-method", "Access-control-request-headers");

    /** Each name's usual spellings (its key form, each word capitalised, all lower case) to its key form. */
    private static final Map<String, String> SPELLINGS = new HashMap<>();

    static {
        for (String key : KEY_FORMS) {
            SPELLINGS.put(key, key);
            SPELLINGS.put(key.toLowerCase(Locale.ROOT), key);
            SPELLINGS.put(wordsCapitalised(key), key);
        }
    }

    private CommonFieldNames() {
    }

    /**
     * The key form of {@code name} if it is one of the names in key form, with each word capitalised or all in
     * lower case; otherwise {@code null}.
     */
    static String keyFormOf(String name) {
        return SPELLINGS.get(name);
    }

    private static String wordsCapitalised(String key) {
        char[] c = key.toCharArray();
        for (int i = 0; i < c.length; i++) {
            if (i == 0 || c[i - 1] == '-') {
                c[i] = Character.toUpperCase(c[i]);
            }
        }
        return new String(c);
    }
}
