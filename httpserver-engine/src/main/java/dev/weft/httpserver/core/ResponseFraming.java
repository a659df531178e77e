package dev.weft.httpserver.core;

/**
 * How a final response is framed, decided once for every protocol from the request method, the status, the
 * length the handler gave {@code sendResponseHeaders} and the fields it set (RFC 9110 §6.4.1, §8.6; RFC 9112
 * §6.3; RFC 9113 §8.1). The protocol writers only encode the decision: HTTP/1.1 as {@code Content-Length},
 * chunked or close-delimited bodies, HTTP/2 as {@code content-length} and DATA frames.
 *
 * @param body              what follows the head
 * @param contentLength     the {@code Content-Length} the server sends, or -1 for none
 * @param keepHandlerLength whether a {@code Content-Length} the handler set is passed through instead (HEAD and
 *                          304, whose length describes a body not sent)
 * @param addDate           whether the server adds {@code Date} (the handler set none)
 * @param server            the {@code Server} value the server adds, or {@code null} for none
 */
public record ResponseFraming(Body body, long contentLength, boolean keepHandlerLength, boolean addDate,
                              String server) {

    /** The framing of an interim (1xx) response: the handler's fields only. */
    public static final ResponseFraming INTERIM = new ResponseFraming(Body.NONE, -1, false, false, null);

    /** What follows a response head. */
    public enum Body {
        /** Nothing: a response to HEAD, a 204 or 304, or a length of -1. */
        NONE,
        /** Exactly {@link #contentLength()} bytes. */
        FIXED,
        /** A body of unknown length: chunked (HTTP/1.1), close-delimited (HTTP/1.0) or DATA frames (HTTP/2). */
        STREAMED,
        /** The connection or stream carries raw bytes: a 101 protocol switch or a 2xx answer to CONNECT. */
        TUNNEL
    }

    /**
     * The framing of a final response.
     *
     * @param length        the length given to {@code sendResponseHeaders}: positive for a fixed length, 0 for
     *                      a streamed body, -1 for none
     * @param handlerFields what {@link ResponseFields#validate} reported of the handler's fields
     * @param serverHeader  the configured {@code Server} value, or {@code null} for none
     */
    public static ResponseFraming of(String method, int status, long length, int handlerFields,
                                     String serverHeader) {
        boolean addDate = (handlerFields & ResponseFields.DATE_SET) == 0;
        String server = (handlerFields & ResponseFields.SERVER_SET) == 0 ? serverHeader : null;
        boolean head = method.equals("HEAD");
        if (status == 101 || method.equals("CONNECT") && status >= 200 && status < 300) {
            return new ResponseFraming(Body.TUNNEL, -1, false, addDate, server);
        }
        boolean keepHandlerLength = head || status == 304;
        if (head || status == 204 || status == 304 || length < 0) {
            long contentLength;
            if (head) {
                // the length of the body a GET would have had, unless the handler said so itself
                contentLength = length > 0 && (handlerFields & ResponseFields.CONTENT_LENGTH_SET) == 0 ? length : -1;
            } else if (status == 204 || status == 304) {
                contentLength = -1; // RFC 9110 §8.6: never in a 204; a 304 keeps the handler's, if any
            } else {
                contentLength = 0;
            }
            return new ResponseFraming(Body.NONE, contentLength, keepHandlerLength, addDate, server);
        }
        if (length > 0) {
            return new ResponseFraming(Body.FIXED, length, false, addDate, server);
        }
        return new ResponseFraming(Body.STREAMED, -1, false, addDate, server);
    }

    /**
     * Whether the exchange ends with the head, as in the JDK's server: a response with nothing to send (HEAD,
     * 204, 304, a length of -1), except a protocol switch, whose connection goes on.
     */
    public static boolean endsWithHead(String method, int status, long length) {
        return status != 101 && (length < 0 || method.equals("HEAD") || status == 204 || status == 304);
    }
}
