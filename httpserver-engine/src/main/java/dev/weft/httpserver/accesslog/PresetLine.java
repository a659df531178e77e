package dev.weft.httpserver.accesslog;

/**
 * The Common and Combined Log Formats written field after field: the default pattern is on every exchange's path,
 * and straight code spares it the dispatch over a pattern's parts. Writes exactly what the parts of the same
 * preset write.
 */
final class PresetLine {

    private static final byte[] NO_IDENT = {' ', '-', ' '};
    private static final byte[] QUOTED_NEXT = {'"', ' ', '"'};

    private PresetLine() {
    }

    /** {@code %h %l %u %t "%r" %>s %b}, then {@code "%{Referer}i" "%{User-Agent}i"} if {@code combined}. */
    static void format(LogEntry e, LineBuffer line, boolean combined) {
        Directives.address(line, e.remote());
        line.append(NO_IDENT);
        Directives.escaped(line, e.user());
        line.append(' ');
        line.append(LogTime.of(e.startMillis()));
        line.append(' ');
        line.append('"');
        Directives.requestLine(line, e);
        line.append('"');
        line.append(' ');
        line.appendStatus(e.status());
        line.append(' ');
        Directives.bytesOrDash(line, e.bytes());
        if (combined) {
            line.append(' ');
            line.append('"');
            Directives.escaped(line, Directives.field(e.requestHeaders(), "Referer"));
            line.append(QUOTED_NEXT);
            Directives.escaped(line, Directives.field(e.requestHeaders(), "User-agent"));
            line.append('"');
        }
    }
}
