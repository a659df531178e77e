package dev.weft.httpserver.accesslog;

import com.sun.net.httpserver.Headers;

import java.net.InetSocketAddress;
import java.util.Locale;

/**
 * The directives of a {@link LogPattern}, each a {@link LogPattern.Part}. Text that comes from the client (request
 * line, headers, user) is escaped so that a line stays one parseable line: {@code "} and {@code \} get a
 * backslash, control and non-ASCII characters become {@code \xhh}. Missing values are written {@code -}.
 */
final class Directives {

    /** The directives, for messages. */
    static final String KNOWN = "%a %A %b %B %D %h %H %l %m %p %{local|remote}p %q %r %s %>s %t %T %{s|ms|us}T "
            + "%u %U %v %{Name}i %{Name}o %%";

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private Directives() {
    }

    /** The part of directive {@code letter} with its {@code {argument}} (or {@code null}), or null if unknown. */
    static LogPattern.Part part(char letter, String argument) {
        if (argument != null) {
            return withArgument(letter, argument);
        }
        return switch (letter) {
            case 'a', 'h' -> (line, e) -> address(line, e.remote());
            case 'A' -> (line, e) -> address(line, e.local());
            case 'b' -> (line, e) -> {
                if (e.bytes() > 0) {
                    line.append(e.bytes());
                } else {
                    line.append('-');
                }
            };
            case 'B' -> (line, e) -> line.append(Math.max(0, e.bytes()));
            case 'D' -> (line, e) -> line.append(e.durationNanos() / 1_000);
            case 'T' -> (line, e) -> line.append(e.durationNanos() / 1_000_000_000);
            case 'H' -> (line, e) -> escaped(line, e.protocol());
            case 'l' -> (line, e) -> line.append('-');
            case 'm' -> (line, e) -> escaped(line, e.method());
            case 'p' -> (line, e) -> port(line, e.local());
            case 'q' -> (line, e) -> {
                int q = e.target().indexOf('?');
                if (q >= 0) {
                    escaped(line, e.target(), q, e.target().length());
                }
            };
            case 'r' -> (line, e) -> {
                escaped(line, e.method());
                line.append(' ');
                escaped(line, e.target());
                line.append(' ');
                escaped(line, e.protocol());
            };
            case 's' -> (line, e) -> line.append(e.status());
            case 't' -> (line, e) -> line.append(LogTime.of(e.startMillis()));
            case 'u' -> (line, e) -> escaped(line, e.user());
            case 'U' -> (line, e) -> {
                int q = e.target().indexOf('?');
                escaped(line, e.target(), 0, q < 0 ? e.target().length() : q);
            };
            case 'v' -> Directives::serverName;
            default -> null;
        };
    }

    private static LogPattern.Part withArgument(char letter, String argument) {
        return switch (letter) {
            case 'i' -> (line, e) -> escaped(line, header(e.requestHeaders(), argument));
            case 'o' -> (line, e) -> escaped(line, header(e.responseHeaders(), argument));
            case 'T' -> switch (argument.toLowerCase(Locale.ROOT)) {
                case "s" -> part('T', null);
                case "ms" -> (line, e) -> line.append(e.durationNanos() / 1_000_000);
                case "us" -> part('D', null);
                default -> null;
            };
            case 'p' -> switch (argument.toLowerCase(Locale.ROOT)) {
                case "local", "canonical" -> (line, e) -> port(line, e.local());
                case "remote" -> (line, e) -> port(line, e.remote());
                default -> null;
            };
            default -> null;
        };
    }

    private static String header(Headers headers, String name) {
        return headers == null ? null : headers.getFirst(name);
    }

    private static void address(StringBuilder line, InetSocketAddress a) {
        if (a == null || a.getAddress() == null) {
            line.append('-');
        } else {
            line.append(a.getAddress().getHostAddress());
        }
    }

    private static void port(StringBuilder line, InetSocketAddress a) {
        if (a == null) {
            line.append('-');
        } else {
            line.append(a.getPort());
        }
    }

    /** {@code %v}: the host the client asked for, without its port; else the server's address. */
    private static void serverName(StringBuilder line, LogEntry e) {
        String host = header(e.requestHeaders(), "Host");
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
        escaped(line, host, 0, end);
    }

    /** {@code s} escaped, or {@code -} when it is null or empty. */
    static void escaped(StringBuilder line, String s) {
        if (s == null || s.isEmpty()) {
            line.append('-');
        } else {
            escaped(line, s, 0, s.length());
        }
    }

    private static void escaped(StringBuilder line, String s, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                line.append('\\').append(c);
            } else if (c < 0x20 || c >= 0x7f) {
                if (c > 0xff) {
                    line.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xf]);
                } else {
                    line.append("\\x");
                }
                line.append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
            } else {
                line.append(c);
            }
        }
    }
}
