package dev.weft.httpserver.http1;

import com.sun.net.httpserver.Headers;

/**
 * A parsed and validated HTTP/1.x request head.
 *
 * @param method        request method (interned for the common ones)
 * @param target        request target exactly as received
 * @param form          which form the target has (RFC 9112 §3.2)
 * @param minorVersion  0 for HTTP/1.0, 1 for HTTP/1.1
 * @param headers       the fields, read-only
 * @param contentLength declared body length, or -1 when there is none (or the body is chunked)
 * @param chunked       whether the body uses chunked transfer coding
 * @param expectContinue whether the client waits for {@code 100 Continue} before sending the body
 * @param keepAlive     whether the client allows the connection to stay open
 */
record RequestHead(String method, String target, TargetForm form, int minorVersion, Headers headers,
                   long contentLength, boolean chunked, boolean expectContinue, boolean keepAlive) {

    String protocol() {
        return minorVersion == 1 ? "HTTP/1.1" : "HTTP/1.0";
    }

    boolean hasBody() {
        return chunked || contentLength > 0;
    }

    boolean isHead() {
        return method.equals("HEAD");
    }

    /** The four forms of request target. */
    enum TargetForm {
        /** {@code /path?query} */
        ORIGIN,
        /** {@code http://host/path}: any method but CONNECT */
        ABSOLUTE,
        /** {@code host:port}: CONNECT only */
        AUTHORITY,
        /** {@code *}: OPTIONS only */
        ASTERISK
    }
}
