package dev.weft.httpserver.http2;

import dev.weft.httpserver.core.CharClasses;
import dev.weft.httpserver.core.RequestHeaders;
import dev.weft.httpserver.hpack.HeaderField;

import java.util.List;

/**
 * Checks a decoded HTTP/2 request header list (RFC 9113 §8.2, §8.3; extended CONNECT of RFC 8441 §4) and turns
 * it into the request's pseudo-header values and API {@code Headers}. A malformed list is a stream error
 * {@code PROTOCOL_ERROR} (§8.1.1).
 *
 * @param method        {@code :method}
 * @param path          {@code :path}, or {@code null} for a plain CONNECT
 * @param authority     {@code :authority}, or {@code null}
 * @param headers       the regular fields, normalised as {@code Headers} keys, with {@code Host} taken from
 *                      {@code :authority} when absent and {@code cookie} fields joined (§8.2.3); read-only
 * @param contentLength the {@code content-length} value, or -1 when absent
 * @param expectContinue whether the request carries {@code expect: 100-continue}
 * @param protocol      {@code :protocol} of an extended CONNECT (RFC 8441), or {@code null}
 */
record RequestFields(String method, String path, String authority, RequestHeaders headers, long contentLength,
                     boolean expectContinue, String protocol) {

    /**
     * Validates a request's header section, with extended CONNECT not enabled.
     *
     * @throws Http2StreamException PROTOCOL_ERROR when the list is malformed
     */
    static RequestFields ofRequest(int streamId, List<HeaderField> fields) throws Http2StreamException {
        return ofRequest(streamId, fields, new Checked(), false);
    }

    /**
     * The fields one connection has already checked. HPACK hands out the same {@link HeaderField} instance
     * each time a field is sent by index, so a field seen before is recognised by identity and not checked
     * again. Bounded: it is emptied when it grows past what the decoding tables can hold. Reader thread only.
     */
    static final class Checked {
        private static final int MAX = 512;
        private final java.util.IdentityHashMap<HeaderField, String> keyForms = new java.util.IdentityHashMap<>();
        private HeaderField path;
        private HeaderField authority;

        String keyForm(HeaderField f) {
            return keyForms.get(f);
        }

        void remember(HeaderField f, String keyForm) {
            if (keyForms.size() >= MAX) {
                keyForms.clear();
            }
            keyForms.put(f, keyForm);
        }
    }

    /**
     * As {@link #ofRequest(int, List)}, skipping the checks of fields {@code checked} has seen pass.
     *
     * @param extendedConnect whether this server announced SETTINGS_ENABLE_CONNECT_PROTOCOL = 1, which makes
     *                        {@code :protocol} a known pseudo-header (RFC 8441 §3)
     */
    static RequestFields ofRequest(int streamId, List<HeaderField> fields, Checked checked, boolean extendedConnect)
            throws Http2StreamException {
        String method = null;
        String protocol = null;
        String scheme = null;
        String path = null;
        String authority = null;
        boolean regularSeen = false;
        long contentLength = -1;
        boolean expectContinue = false;
        String host = null;
        HeaderField pathField = null;
        HeaderField authorityField = null;
        StringBuilder cookie = null;
        RequestHeaders headers = new RequestHeaders();
        for (HeaderField f : fields) {
            String name = f.name();
            String value = f.value();
            if (name.startsWith(":")) {
                if (regularSeen) {
                    throw malformed(streamId, "pseudo-header " + name + " after a regular field");
                }
                switch (name) {
                    case ":method" -> method = once(streamId, name, method, value);
                    case ":scheme" -> scheme = once(streamId, name, scheme, value);
                    case ":path" -> {
                        path = once(streamId, name, path, value);
                        pathField = f;
                    }
                    case ":authority" -> {
                        authority = once(streamId, name, authority, value);
                        authorityField = f;
                    }
                    case ":protocol" -> {
                        // RFC 8441 §3: without the setting, :protocol is unknown and the request malformed.
                        if (!extendedConnect) {
                            throw malformed(streamId, ":protocol without SETTINGS_ENABLE_CONNECT_PROTOCOL");
                        }
                        protocol = once(streamId, name, protocol, value);
                    }
                    default -> throw malformed(streamId, "unknown or response pseudo-header " + name);
                }
                continue;
            }
            regularSeen = true;
            String key = checked.keyForm(f);
            if (key == null) {
                checkRegular(streamId, name, value);
                key = FieldNames.keyForm(name);
                checked.remember(f, key);
            }
            switch (name) {
                case "content-length" -> {
                    long n = parseLength(streamId, value);
                    if (contentLength >= 0 && n != contentLength) {
                        throw malformed(streamId, "conflicting content-length values");
                    }
                    contentLength = n;
                }
                case "te" -> {
                    if (!value.equalsIgnoreCase("trailers")) {
                        throw malformed(streamId, "te other than trailers");
                    }
                }
                case "host" -> host = value;
                case "expect" -> expectContinue |= value.equalsIgnoreCase("100-continue");
                case "cookie" -> {
                    // §8.2.3: crumbs are joined with "; " for HTTP/1.1-style consumers.
                    cookie = cookie == null ? new StringBuilder(value) : cookie.append("; ").append(value);
                    continue;
                }
                default -> {
                }
            }
            headers.append(key, value);
        }
        if (cookie != null) {
            headers.append("Cookie", cookie.toString());
        }
        if (method == null) {
            throw malformed(streamId, "missing :method");
        }
        if (!method.equals("GET") && !method.equals("POST") && !isToken(method)) {
            throw malformed(streamId, "invalid :method");
        }
        if (protocol != null) {
            checkExtendedConnect(streamId, method, protocol, scheme, path, authority);
        }
        if (method.equals("CONNECT") && protocol == null) {
            if (authority == null || scheme != null || path != null) {
                throw malformed(streamId, "CONNECT needs :authority and no :scheme or :path");
            }
        } else {
            if (scheme == null || path == null) {
                throw malformed(streamId, "missing :scheme or :path");
            }
            if (pathField != checked.path) {
                checkPath(streamId, method, path);
                checked.path = path.equals("*") ? null : pathField; // "*" depends on the method
            }
        }
        if (authority != null) {
            if (authorityField != checked.authority) {
                checkAuthority(streamId, authority);
                checked.authority = authorityField;
            }
            if (host == null) {
                headers.append("Host", authority);
            } else if (!host.equalsIgnoreCase(authority)) {
                throw malformed(streamId, "host and :authority differ");
            }
        }
        return new RequestFields(method, path, authority, headers.freeze(), contentLength, expectContinue,
                protocol);
    }

    /**
     * RFC 8441 §4: ":protocol ... MAY be included on request HEADERS" of a CONNECT; "On requests that contain
     * the :protocol pseudo-header field, the :scheme and :path pseudo-header fields of the target URI MUST
     * also be included", and :authority names the target as for any request (RFC 9113 §8.3.1).
     */
    private static void checkExtendedConnect(int streamId, String method, String protocol, String scheme,
                                             String path, String authority) throws Http2StreamException {
        if (!method.equals("CONNECT")) {
            throw malformed(streamId, ":protocol on a " + method + " request");
        }
        if (scheme == null || path == null || authority == null) {
            throw malformed(streamId, "extended CONNECT needs :scheme, :path and :authority");
        }
        if (!isToken(protocol)) {
            throw malformed(streamId, ":protocol is not a token");
        }
    }

    /**
     * Validates a trailer section: regular fields only.
     *
     * @throws Http2StreamException PROTOCOL_ERROR when the list is malformed
     */
    static RequestHeaders ofTrailers(int streamId, List<HeaderField> fields) throws Http2StreamException {
        RequestHeaders trailers = new RequestHeaders();
        for (HeaderField f : fields) {
            if (f.name().startsWith(":")) {
                throw malformed(streamId, "pseudo-header " + f.name() + " in trailers");
            }
            checkRegular(streamId, f.name(), f.value());
            trailers.append(FieldNames.keyForm(f.name()), f.value());
        }
        return trailers.freeze();
    }

    private static String once(int streamId, String name, String previous, String value) throws Http2StreamException {
        if (previous != null) {
            throw malformed(streamId, "duplicate " + name);
        }
        return value;
    }

    /** §8.2.1 and §8.2.2: lower-case token names, no CR/LF/NUL or edge whitespace, no connection fields. */
    private static void checkRegular(int streamId, String name, String value) throws Http2StreamException {
        if (name.isEmpty()) {
            throw malformed(streamId, "empty field name");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c > 0x7f || c >= 'A' && c <= 'Z' || !CharClasses.isToken((byte) c)) {
                throw malformed(streamId, "invalid field name");
            }
        }
        int len = value.length();
        for (int i = 0; i < len; i++) {
            char c = value.charAt(i);
            if (c > 0xff || !CharClasses.isFieldValue((byte) c)) {
                throw malformed(streamId, "invalid character in field " + name);
            }
        }
        if (len > 0 && (isSpace(value.charAt(0)) || isSpace(value.charAt(len - 1)))) {
            throw malformed(streamId, "field " + name + " starts or ends with whitespace");
        }
        switch (name) {
            case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade" ->
                    throw malformed(streamId, "connection-specific field " + name);
            default -> {
            }
        }
    }

    private static void checkPath(int streamId, String method, String path) throws Http2StreamException {
        if (path.isEmpty()) {
            throw malformed(streamId, "empty :path");
        }
        if (path.equals("*")) {
            if (!method.equals("OPTIONS")) {
                throw malformed(streamId, ":path * is only for OPTIONS");
            }
            return;
        }
        if (path.charAt(0) != '/') {
            throw malformed(streamId, ":path must start with /");
        }
        int len = path.length();
        for (int i = 0; i < len; i++) {
            char c = path.charAt(i);
            if (c > 0x7f || !CharClasses.isTarget((byte) c)) {
                throw malformed(streamId, "invalid character in :path");
            }
            if (c == '%' && (i + 2 >= len || !CharClasses.isHexDigit(path.charAt(i + 1))
                    || !CharClasses.isHexDigit(path.charAt(i + 2)))) {
                throw malformed(streamId, "invalid percent-encoding in :path");
            }
        }
    }

    private static void checkAuthority(int streamId, String authority) throws Http2StreamException {
        if (authority.isEmpty() || authority.indexOf('@') >= 0) {
            throw malformed(streamId, "invalid :authority");
        }
        for (int i = 0; i < authority.length(); i++) {
            char c = authority.charAt(i);
            if (c > 0x7f || c != '[' && c != ']' && !CharClasses.isTarget((byte) c) || c == '/' || c == '?'
                    || c == '%' && (i + 2 >= authority.length() || !CharClasses.isHexDigit(authority.charAt(i + 1))
                    || !CharClasses.isHexDigit(authority.charAt(i + 2)))) {
                throw malformed(streamId, "invalid :authority");
            }
        }
    }

    private static long parseLength(int streamId, String value) throws Http2StreamException {
        if (value.isEmpty() || value.length() > 18) {
            throw malformed(streamId, "invalid content-length");
        }
        long n = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                throw malformed(streamId, "invalid content-length");
            }
            n = n * 10 + (c - '0');
        }
        return n;
    }

    private static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c > 0x7f || !CharClasses.isToken((byte) c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }

    private static Http2StreamException malformed(int streamId, String message) {
        return new Http2StreamException(streamId, ErrorCode.PROTOCOL_ERROR, "malformed request: " + message);
    }
}
