package dev.weft.httpserver.http1;

import dev.weft.httpserver.core.CharClasses;
import dev.weft.httpserver.core.TargetPaths;
import dev.weft.httpserver.http1.RequestHead.TargetForm;
import dev.weft.httpserver.stats.ProtocolError;

import java.net.URI;
import java.net.URISyntaxException;

/** Validates request targets (RFC 9112 §3.2) and {@code Host} values (RFC 9110 §7.2). */
final class RequestTargets {

    private RequestTargets() {
    }

    /** Checks the target's syntax and that its form suits the method. */
    static TargetForm classify(String method, byte[] b, int from, int to) throws BadRequestException {
        boolean connect = method.equals("CONNECT");
        if (b[from] == '/') {
            if (connect) {
                throw RequestParser.bad(400, ProtocolError.BAD_REQUEST_TARGET, "CONNECT needs an authority-form target");
            }
            checkUriChars(b, from, to);
            checkNoDotSegment(b, from, to);
            return TargetForm.ORIGIN;
        }
        if (to - from == 1 && b[from] == '*') {
            if (!method.equals("OPTIONS")) {
                throw RequestParser.bad(400, ProtocolError.BAD_REQUEST_TARGET, "asterisk-form is for OPTIONS only");
            }
            return TargetForm.ASTERISK;
        }
        if (connect) {
            if (!isValidAuthority(b, from, to, true)) {
                throw RequestParser.bad(400, ProtocolError.BAD_REQUEST_TARGET, "invalid authority-form target");
            }
            return TargetForm.AUTHORITY;
        }
        int scheme = schemeEnd(b, from, to);
        if (scheme < 0 || to - scheme < 3 || b[scheme + 1] != '/' || b[scheme + 2] != '/') {
            throw RequestParser.bad(400, ProtocolError.BAD_REQUEST_TARGET, "invalid request target");
        }
        String s = new String(b, from, scheme - from, java.nio.charset.StandardCharsets.US_ASCII);
        if (!s.equalsIgnoreCase("http") && !s.equalsIgnoreCase("https")) {
            throw RequestParser.bad(400, ProtocolError.BAD_REQUEST_TARGET, "unsupported scheme in absolute-form");
        }
        int authStart = scheme + 3;
        int authEnd = authStart;
        while (authEnd < to && b[authEnd] != '/' && b[authEnd] != '?') {
            authEnd++;
        }
        if (!isValidAuthority(b, authStart, authEnd, false)) {
            throw RequestParser.bad(400, ProtocolError.BAD_REQUEST_TARGET, "invalid authority in absolute-form");
        }
        checkUriChars(b, authEnd, to);
        checkNoDotSegment(b, authEnd, to);
        return TargetForm.ABSOLUTE;
    }

    /** Index of the ':' ending a URI scheme at {@code from}, or -1. */
    private static int schemeEnd(byte[] b, int from, int to) {
        if (!Character.isLetter(b[from])) {
            return -1;
        }
        for (int i = from + 1; i < to; i++) {
            int c = b[i];
            if (c == ':') {
                return i;
            }
            if (!(Character.isLetterOrDigit(c) && c < 128 || c == '+' || c == '-' || c == '.')) {
                return -1;
            }
        }
        return -1;
    }

    private static void checkUriChars(byte[] b, int from, int to) throws BadRequestException {
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (!CharClasses.isTarget(c)) {
                throw RequestParser.bad(400, ProtocolError.BAD_REQUEST_TARGET, "invalid character in request target");
            }
            if (c == '%' && (i + 2 >= to || !CharClasses.isHexDigit(b[i + 1]) || !CharClasses.isHexDigit(b[i + 2]))) {
                throw RequestParser.bad(400, ProtocolError.BAD_REQUEST_TARGET, "invalid percent-encoding");
            }
        }
    }

    /** See {@link TargetPaths}: a path with a dot-segment is refused. */
    private static void checkNoDotSegment(byte[] b, int from, int to) throws BadRequestException {
        if (TargetPaths.hasDotSegment(b, from, to)) {
            throw RequestParser.bad(400, ProtocolError.BAD_REQUEST_TARGET, "dot-segment in request path");
        }
    }

    /** {@code uri-host [":" port]}; with {@code portRequired}, the port must be there (authority-form). */
    private static boolean isValidAuthority(byte[] b, int from, int to, boolean portRequired) {
        if (from >= to) {
            return false;
        }
        int i = from;
        if (b[i] == '[') {
            while (i < to && b[i] != ']') {
                int c = b[i];
                if (!(CharClasses.isHexDigit(c) || c == ':' || c == '.' || c == '[')) {
                    return false;
                }
                i++;
            }
            if (i == to) {
                return false;
            }
            i++;
        } else {
            while (i < to && b[i] != ':') {
                byte c = b[i];
                if (!CharClasses.isTarget(c) || c == '/' || c == '?' || c == '@'
                        || c == '%' && (i + 2 >= to || !CharClasses.isHexDigit(b[i + 1])
                        || !CharClasses.isHexDigit(b[i + 2]))) {
                    return false;
                }
                i++;
            }
            if (i == from) {
                return false;
            }
        }
        if (i == to) {
            return !portRequired;
        }
        if (b[i] != ':') {
            return false;
        }
        int digits = 0;
        for (i++; i < to; i++, digits++) {
            if (b[i] < '0' || b[i] > '9' || digits >= 5) {
                return false;
            }
        }
        return digits > 0 || !portRequired;
    }

    /** A {@code Host} field value: empty, or {@code uri-host [":" port]}. */
    static boolean isValidHost(String host) {
        if (host.isEmpty()) {
            return true;
        }
        byte[] b = new byte[host.length()];
        for (int i = 0; i < b.length; i++) {
            char c = host.charAt(i);
            if (c > 0x7e) {
                return false;
            }
            b[i] = (byte) c;
        }
        return isValidAuthority(b, 0, b.length, false);
    }

    /**
     * The request URI the API exposes (see {@link TargetPaths}). Authority-form targets become {@code //host:port}
     * URIs so that {@link URI#getHost()} and {@link URI#getPort()} work.
     */
    static URI toUri(String target, TargetForm form) throws URISyntaxException {
        return switch (form) {
            case ORIGIN -> TargetPaths.originUri(target);
            case AUTHORITY -> TargetPaths.authorityUri(target);
            case ABSOLUTE, ASTERISK -> new URI(target);
        };
    }

    /**
     * The decoded path used to find the context: {@link URI#getPath()} of {@link #toUri}, or {@code "/"} where
     * that is empty (absolute-form without a path) or absent (authority-form, asterisk-form).
     */
    static String routingPath(String target, TargetForm form) throws URISyntaxException {
        switch (form) {
            case ORIGIN -> {
                return TargetPaths.originPath(target);
            }
            case ABSOLUTE -> {
                String p = new URI(target).getPath();
                return p == null || p.isEmpty() ? "/" : p;
            }
            default -> {
                return "/";
            }
        }
    }
}
