package dev.weft.servlet.mapping;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The one place where a request's raw path becomes the decoded path used for every mapping (context, servlet,
 * filter, resource): Servlet 6.1 §3.5.2 "URI Path Canonicalization". Path parameters are removed, each segment
 * is percent-decoded as UTF-8, empty segments (but the last) and dot-segments are removed, and every sequence the
 * specification calls suspicious is rejected rather than guessed at: a fragment, a path not starting with
 * {@code /}, an encoded {@code /}, a backslash, a control character, a malformed escape or UTF-8, a dot-segment
 * that was encoded or carried parameters, an empty segment with parameters (but the last), and a {@code ..}
 * climbing above the root. Stateless.
 */
public final class PathCanonicalizer {

    private PathCanonicalizer() {
    }

    /**
     * The canonical, decoded form of {@code rawPath} (the path of the request target, still percent-encoded,
     * without the query).
     *
     * @throws SuspiciousPathException for every sequence the specification lists as suspicious
     */
    public static String canonicalize(String rawPath) throws SuspiciousPathException {
        if (rawPath.indexOf('#') >= 0) {
            throw new SuspiciousPathException("fragment in the request path");
        }
        if (rawPath.isEmpty() || rawPath.charAt(0) != '/') {
            throw new SuspiciousPathException("path does not start with /");
        }
        List<String> segments = new ArrayList<>();
        int start = 1;
        int length = rawPath.length();
        while (true) {
            int end = rawPath.indexOf('/', start);
            boolean last = end < 0;
            if (last) {
                end = length;
            }
            String segment = segment(rawPath, start, end, last);
            if (segment != null) {
                segments.add(segment);
            }
            if (last) {
                break;
            }
            start = end + 1;
        }
        return join(removeDotSegments(segments));
    }

    /**
     * One raw segment, checked and decoded; null when it is removed (an empty segment other than the last, or a
     * {@code .} segment).
     */
    private static String segment(String raw, int start, int end, boolean last) throws SuspiciousPathException {
        int semi = raw.indexOf(';', start);
        boolean hasParameters = semi >= 0 && semi < end;
        int valueEnd = hasParameters ? semi : end;
        if (hasParameters) {
            // parameters are not decoded, but what they carry is as suspicious as in the segment itself
            checkRawParameters(raw, semi + 1, end);
        }
        boolean encoded = false;
        for (int i = start; i < valueEnd; i++) {
            if (raw.charAt(i) == '%') {
                encoded = true;
                break;
            }
        }
        String decoded = encoded ? decode(raw, start, valueEnd) : raw.substring(start, valueEnd);
        checkDecoded(decoded);
        if (decoded.isEmpty()) {
            if (hasParameters && !last) {
                throw new SuspiciousPathException("empty segment with parameters");
            }
            return last ? "" : null;
        }
        boolean dot = decoded.equals(".");
        if (dot || decoded.equals("..")) {
            if (encoded) {
                throw new SuspiciousPathException("encoded dot segment");
            }
            if (hasParameters) {
                throw new SuspiciousPathException("dot segment with parameters");
            }
            return dot ? null : "..";
        }
        return decoded;
    }

    private static void checkRawParameters(String raw, int from, int to) throws SuspiciousPathException {
        for (int i = from; i < to; i++) {
            char c = raw.charAt(i);
            if (c == '\\' || Character.isISOControl(c)) {
                throw new SuspiciousPathException("backslash or control character in path parameters");
            }
            if (c == '%') {
                int value = i + 2 < to ? hexPair(raw, i + 1) : -1;
                if (value == '/' || value == '\\' || value >= 0 && Character.isISOControl(value)) {
                    throw new SuspiciousPathException("encoded /, backslash or control character in path parameters");
                }
            }
        }
    }

    private static void checkDecoded(String decoded) throws SuspiciousPathException {
        for (int i = 0; i < decoded.length(); i++) {
            char c = decoded.charAt(i);
            if (c == '/') {
                throw new SuspiciousPathException("encoded / in a segment");
            }
            if (c == '\\') {
                throw new SuspiciousPathException("backslash in the path");
            }
            if (Character.isISOControl(c)) {
                throw new SuspiciousPathException("control character in the path");
            }
        }
    }

    /** Percent-decodes {@code raw[from, to)} as strict UTF-8. */
    private static String decode(String raw, int from, int to) throws SuspiciousPathException {
        byte[] bytes = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int value = i + 2 < to ? hexPair(raw, i + 1) : -1;
                if (value < 0) {
                    throw new SuspiciousPathException("malformed percent-escape");
                }
                bytes[n++] = (byte) value;
                i += 2;
            } else if (c > 0x7f) {
                throw new SuspiciousPathException("non-ASCII character in the raw path");
            } else {
                bytes[n++] = (byte) c;
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, n)).toString();
        } catch (CharacterCodingException e) {
            throw new SuspiciousPathException("path is not valid UTF-8");
        }
    }

    /** The byte of the two hex digits at {@code s[at, at + 2)}, or -1. */
    private static int hexPair(String s, int at) {
        int hi = Character.digit(s.charAt(at), 16);
        int lo = Character.digit(s.charAt(at + 1), 16);
        return hi < 0 || lo < 0 ? -1 : hi << 4 | lo;
    }

    private static List<String> removeDotSegments(List<String> segments) throws SuspiciousPathException {
        List<String> out = new ArrayList<>(segments.size());
        for (String s : segments) {
            if (s.equals("..")) {
                if (out.isEmpty() || out.get(out.size() - 1).equals("..")) {
                    throw new SuspiciousPathException("leading dot-dot segment");
                }
                out.remove(out.size() - 1);
            } else {
                out.add(s);
            }
        }
        // "/foo/bar/.." leaves "foo"; a trailing empty segment from the raw path is kept as it came
        return out;
    }

    private static String join(List<String> segments) {
        if (segments.isEmpty()) {
            return "/";
        }
        StringBuilder b = new StringBuilder();
        for (String s : segments) {
            b.append('/').append(s);
        }
        return b.toString();
    }
}
