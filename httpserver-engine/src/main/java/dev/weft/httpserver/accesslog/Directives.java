package dev.weft.httpserver.accesslog;

import com.sun.net.httpserver.Headers;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The directives of a {@link LogPattern}: each {@link Part} is a {@link Kind} and its argument, written by one
 * switch (so that formatting a line makes no virtual calls). Text that comes from the client (request line,
 * headers, user) is escaped so that a line stays one parseable line: {@code "} and {@code \} get a backslash,
 * control and non-ASCII characters become {@code \xhh}. Missing values are written {@code -}.
 */
final class Directives {

    /** The directives, for messages. */
    static final String KNOWN = "%a %A %b %B %D %h %H %l %m %p %{local|remote}p %q %r %s %>s %t %T %{s|ms|us}T "
            + "%u %U %v %{Name}i %{Name}o %%";

    /** What a part writes. */
    enum Kind {
        TEXT, REMOTE_ADDRESS, LOCAL_ADDRESS, BYTES_OR_DASH, BYTES, MICROS, MILLIS, SECONDS, PROTOCOL, DASH, METHOD,
        LOCAL_PORT, REMOTE_PORT, QUERY, REQUEST_LINE, STATUS, TIME, USER, PATH, SERVER_NAME, REQUEST_FIELD,
        RESPONSE_FIELD
    }

    /**
     * One piece of a line.
     *
     * @param argument the field name in key form, or {@code null}
     * @param text     the literal text as ASCII bytes, or {@code null}
     */
    record Part(Kind kind, String argument, byte[] text) {
    }

    private Directives() {
    }

    /** Literal {@code text} (printable ASCII). */
    static Part text(String text) {
        return new Part(Kind.TEXT, null, text.getBytes(StandardCharsets.US_ASCII));
    }

    /** The part of directive {@code letter} with its {@code {argument}} (or {@code null}), or null if unknown. */
    static Part part(char letter, String argument) {
        Kind kind = argument != null ? withArgument(letter, argument.toLowerCase(Locale.ROOT)) : switch (letter) {
            case 'a', 'h' -> Kind.REMOTE_ADDRESS;
            case 'A' -> Kind.LOCAL_ADDRESS;
            case 'b' -> Kind.BYTES_OR_DASH;
            case 'B' -> Kind.BYTES;
            case 'D' -> Kind.MICROS;
            case 'T' -> Kind.SECONDS;
            case 'H' -> Kind.PROTOCOL;
            case 'l' -> Kind.DASH;
            case 'm' -> Kind.METHOD;
            case 'p' -> Kind.LOCAL_PORT;
            case 'q' -> Kind.QUERY;
            case 'r' -> Kind.REQUEST_LINE;
            case 's' -> Kind.STATUS;
            case 't' -> Kind.TIME;
            case 'u' -> Kind.USER;
            case 'U' -> Kind.PATH;
            case 'v' -> Kind.SERVER_NAME;
            default -> null;
        };
        if (kind == null) {
            return null;
        }
        boolean field = kind == Kind.REQUEST_FIELD || kind == Kind.RESPONSE_FIELD;
        return new Part(kind, field ? keyForm(argument) : null, null);
    }

    private static Kind withArgument(char letter, String argument) {
        return switch (letter) {
            case 'i' -> Kind.REQUEST_FIELD;
            case 'o' -> Kind.RESPONSE_FIELD;
            case 'T' -> switch (argument) {
                case "s" -> Kind.SECONDS;
                case "ms" -> Kind.MILLIS;
                case "us" -> Kind.MICROS;
                default -> null;
            };
            case 'p' -> switch (argument) {
                case "local", "canonical" -> Kind.LOCAL_PORT;
                case "remote" -> Kind.REMOTE_PORT;
                default -> null;
            };
            default -> null;
        };
    }

    /** A field name as {@link Headers} keys it (first letter upper case, the rest lower case): found at once. */
    private static String keyForm(String name) {
        return name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1).toLowerCase(Locale.ROOT);
    }

    /** Appends what {@code part} writes for {@code e}. */
    static void append(Part part, LineBuffer line, LogEntry e) {
        switch (part.kind) {
            case TEXT -> line.append(part.text);
            case REMOTE_ADDRESS -> address(line, e.remote());
            case LOCAL_ADDRESS -> address(line, e.local());
            case BYTES_OR_DASH -> bytesOrDash(line, e.bytes());
            case BYTES -> line.appendNumber(Math.max(0, e.bytes()));
            case MICROS -> line.appendNumber(e.durationNanos() / 1_000);
            case MILLIS -> line.appendNumber(e.durationNanos() / 1_000_000);
            case SECONDS -> line.appendNumber(e.durationNanos() / 1_000_000_000);
            case PROTOCOL -> escaped(line, e.protocol());
            case DASH -> line.append('-');
            case METHOD -> escaped(line, e.method());
            case LOCAL_PORT -> port(line, e.local());
            case REMOTE_PORT -> port(line, e.remote());
            case QUERY -> {
                int q = e.target().indexOf('?');
                if (q >= 0) {
                    line.appendEscaped(e.target(), q, e.target().length());
                }
            }
            case REQUEST_LINE -> requestLine(line, e);
            case STATUS -> line.appendStatus(e.status());
            case TIME -> line.append(LogTime.of(e.startMillis()));
            case USER -> escaped(line, e.user());
            case PATH -> {
                int q = e.target().indexOf('?');
                line.appendEscaped(e.target(), 0, q < 0 ? e.target().length() : q);
            }
            case SERVER_NAME -> serverName(line, e);
            case REQUEST_FIELD -> escaped(line, field(e.requestHeaders(), part.argument));
            case RESPONSE_FIELD -> escaped(line, field(e.responseHeaders(), part.argument));
        }
    }

    /** {@code %b}: the body's bytes, or {@code -} for none. */
    static void bytesOrDash(LineBuffer line, long bytes) {
        if (bytes > 0) {
            line.appendNumber(bytes);
        } else {
            line.append('-');
        }
    }

    /** {@code %r}: method, target and protocol, each escaped. */
    static void requestLine(LineBuffer line, LogEntry e) {
        escaped(line, e.method());
        line.append(' ');
        escaped(line, e.target());
        line.append(' ');
        escaped(line, e.protocol());
    }

    static String field(Headers headers, String name) {
        return headers == null ? null : headers.getFirst(name);
    }

    static void address(LineBuffer line, InetSocketAddress a) {
        if (a == null || a.getAddress() == null) {
            line.append('-');
        } else {
            line.appendAddress(a.getAddress());
        }
    }

    private static void port(LineBuffer line, InetSocketAddress a) {
        if (a == null) {
            line.append('-');
        } else {
            line.appendNumber(a.getPort());
        }
    }

    /** {@code %v}: the host the client asked for, without its port; else the server's address. */
    private static void serverName(LineBuffer line, LogEntry e) {
        String host = field(e.requestHeaders(), "Host");
        if (host == null || host.isEmpty()) {
            address(line, e.local());
            return;
        }
        int end;
        if (host.charAt(0) == '[') {
            int close = host.indexOf(']');
            end = close < 0 ? host.length() : close + 1;
        } else {
            int colon = host.indexOf(':');
            end = colon < 0 ? host.length() : colon;
        }
        line.appendEscaped(host, 0, end);
    }

    /** {@code s} escaped, or {@code -} when it is null or empty. */
    static void escaped(LineBuffer line, String s) {
        if (s == null || s.isEmpty()) {
            line.append('-');
        } else {
            line.appendEscaped(s, 0, s.length());
        }
    }
}
