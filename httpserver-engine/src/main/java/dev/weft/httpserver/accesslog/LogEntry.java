package dev.weft.httpserver.accesslog;

import com.sun.net.httpserver.Headers;

import java.net.InetSocketAddress;

/**
 * What the access log knows of one finished exchange; a {@link LogPattern} picks from it.
 *
 * @param remote          the client's address, or {@code null}
 * @param local           the server's address of the connection, or {@code null}
 * @param user            the authenticated user, or {@code null}
 * @param method          the request method
 * @param target          the request target exactly as received
 * @param protocol        {@code HTTP/1.1}, {@code HTTP/1.0} or {@code HTTP/2.0}
 * @param status          the final status, 0 if none was sent
 * @param bytes           response body bytes sent, negative when unknown
 * @param startMillis     when the request arrived, epoch milliseconds
 * @param durationNanos   how long the exchange took
 * @param requestHeaders  the request fields, or {@code null}
 * @param responseHeaders the response fields the handler sent, or {@code null}
 */
public record LogEntry(InetSocketAddress remote, InetSocketAddress local, String user, String method, String target,
                       String protocol, int status, long bytes, long startMillis, long durationNanos,
                       Headers requestHeaders, Headers responseHeaders) {

    /** An entry for an exchange that started at {@code startNanos} ({@link System#nanoTime()}) and ends now. */
    public static LogEntry endingNow(InetSocketAddress remote, InetSocketAddress local, String user, String method,
                                     String target, String protocol, int status, long bytes, long startNanos,
                                     Headers requestHeaders, Headers responseHeaders) {
        return ending(System.nanoTime(), remote, local, user, method, target, protocol, status, bytes, startNanos,
                requestHeaders, responseHeaders);
    }

    /** An entry for an exchange that ran from {@code startNanos} to {@code endNanos} ({@link System#nanoTime()}). */
    public static LogEntry ending(long endNanos, InetSocketAddress remote, InetSocketAddress local, String user,
                                  String method, String target, String protocol, int status, long bytes,
                                  long startNanos, Headers requestHeaders, Headers responseHeaders) {
        long duration = Math.max(0, endNanos - startNanos);
        long start = LogTime.wallMillis(endNanos) - duration / 1_000_000;
        return new LogEntry(remote, local, user, method, target, protocol, status, bytes, start, duration,
                requestHeaders, responseHeaders);
    }
}
