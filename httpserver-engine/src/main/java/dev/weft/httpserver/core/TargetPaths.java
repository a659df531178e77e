package dev.weft.httpserver.core;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * The one rule, for every protocol, for what a request target's path is: the {@link URI} {@code getRequestURI()}
 * returns, the decoded path contexts are matched on, and which paths are refused.
 *
 * <p>An origin-form target (RFC 9112 §3.2.1; HTTP/2's {@code :path}) is a path and never names a host:
 * {@code //evil.example/admin} is the path {@code //evil.example/admin}, whose first segment is empty. Its URI has
 * no authority and its raw path is the target's path exactly as sent. Routing uses that URI's decoded
 * {@link URI#getPath()}, so filters, handlers and context matching agree on the resource asked for. A path
 * with a dot-segment ({@code .} or {@code ..}, also percent-encoded, also before {@code ;} parameters, also
 * between {@code %2F} or {@code %5C}) is refused: layers that normalise it (a proxy in front, a file system)
 * and layers that do not would disagree about the resource.
 */
public final class TargetPaths {

    private TargetPaths() {
    }

    /** An authority-form target ({@code host:port}) as a {@code //host:port} URI, so getHost/getPort work. */
    public static URI authorityUri(String authority) throws URISyntaxException {
        return new URI(null, authority, null, null, null);
    }

    /**
     * An origin-form target ({@code /path?query}, validated) as a URI without authority whose raw path and raw
     * query are exactly the target's. A path starting with {@code //} cannot be written without an authority
     * (RFC 3986 §3.3), so that URI is written with an empty one in front ({@code ////evil.example/x} for the
     * path {@code //evil.example/x}): its {@code getRawAuthority()} and {@code getHost()} are {@code null}, and
     * parsing its {@code toString()} again gives the same path.
     */
    public static URI originUri(String target) throws URISyntaxException {
        return new URI(target.startsWith("//") ? "//" + target : target);
    }

    /**
     * The decoded path of an origin-form target, the one contexts are matched on: {@code originUri(target).getPath()}
     * ({@code /a%20b?q} gives {@code /a b}; {@code //x/y} gives {@code //x/y}).
     */
    public static String originPath(String target) throws URISyntaxException {
        int q = target.indexOf('?');
        String raw = q < 0 ? target : target.substring(0, q);
        return raw.indexOf('%') < 0 ? raw : originUri(raw).getPath();
    }

    /**
     * Whether the path of {@code b[from, to)} (a validated target, or the part of one from its path on; the path
     * ends at {@code ?}) has a dot-segment.
     */
    public static boolean hasDotSegment(byte[] b, int from, int to) {
        int state = START;
        for (int i = from; i < to && state < DONE; ) {
            int c = b[i];
            if (c == '%' && i + 2 < to) {
                state = step(state, decode(b[i + 1], b[i + 2]), false);
                i += 3;
            } else {
                state = step(state, c, true);
                i++;
            }
        }
        return state == FOUND || state == DOT || state == DOT_DOT;
    }

    /** As {@link #hasDotSegment(byte[], int, int)}, for a target held as a string (HTTP/2's {@code :path}). */
    public static boolean hasDotSegment(String s) {
        int state = START;
        int to = s.length();
        for (int i = 0; i < to && state < DONE; ) {
            int c = s.charAt(i);
            if (c == '%' && i + 2 < to) {
                state = step(state, decode(s.charAt(i + 1), s.charAt(i + 2)), false);
                i += 3;
            } else {
                state = step(state, c, true);
                i++;
            }
        }
        return state == FOUND || state == DOT || state == DOT_DOT;
    }

    // States of the scan: at a segment's start, after "." or ".." as the whole segment so far, inside any other
    // segment (or its parameters), finished without a dot-segment, or found one.
    private static final int START = 0;
    private static final int DOT = 1;
    private static final int DOT_DOT = 2;
    private static final int OTHER = 3;
    private static final int DONE = 4;
    private static final int FOUND = 5;

    /**
     * One (decoded) character of the path. Segments end at {@code /} or {@code \} (literal or encoded), and
     * their value at a literal {@code ;}; the path ends at a literal {@code ?}.
     */
    private static int step(int state, int c, boolean literal) {
        boolean dots = state == DOT || state == DOT_DOT;
        if (c == '/' || c == '\\' || literal && c == ';') {
            return dots ? FOUND : c == ';' ? OTHER : START;
        }
        if (literal && c == '?') {
            return dots ? FOUND : DONE;
        }
        if (c == '.') {
            return state == START ? DOT : state == DOT ? DOT_DOT : OTHER;
        }
        return OTHER;
    }

    private static int decode(int hi, int lo) {
        return CharClasses.hexValue(hi) << 4 | CharClasses.hexValue(lo);
    }
}
