package dev.weft.httpserver.accesslog;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An access log format, parsed once into its parts: Apache/Tomcat-style directives such as {@code %h}, {@code %r},
 * {@code %>s} or {@code %{User-Agent}i} (see {@link Directives}) between literal text. Formatting appends one
 * line to a {@link LineBuffer}; a pattern is immutable and shared by all threads.
 */
public final class LogPattern {

    /** The name of the Common Log Format preset. */
    public static final String COMMON = "common";
    /** The name of the Combined Log Format preset, the default. */
    public static final String COMBINED = "combined";

    private static final String COMMON_FORMAT = "%h %l %u %t \"%r\" %>s %b";
    private static final String COMBINED_FORMAT = COMMON_FORMAT + " \"%{Referer}i\" \"%{User-Agent}i\"";

    /** What a pattern is written by: its parts, or the straight code of a preset. */
    private enum Writer { PARTS, COMMON, COMBINED }

    private final String source;
    private final Directives.Part[] parts;
    private final Writer writer;

    private LogPattern(String source, Directives.Part[] parts, Writer writer) {
        this.source = source;
        this.parts = parts;
        this.writer = writer;
    }

    /**
     * The pattern {@code text}, or the preset it names ({@code common}, {@code combined}, in any case).
     *
     * @throws IllegalArgumentException naming the position and the directive if {@code text} has an unknown or
     *                                  incomplete directive
     */
    public static LogPattern compile(String text) {
        if (text == null) {
            throw new IllegalArgumentException("no pattern given");
        }
        return compile(text, true);
    }

    /** {@code text} as parts, even if it names a preset: what the presets' straight code must match. */
    static LogPattern compileAsParts(String text) {
        return compile(text, false);
    }

    private static LogPattern compile(String text, boolean presetsWrittenStraight) {
        return switch (text.strip().toLowerCase(Locale.ROOT)) {
            case COMMON -> new LogPattern(text, parse(COMMON_FORMAT),
                    presetsWrittenStraight ? Writer.COMMON : Writer.PARTS);
            case COMBINED -> new LogPattern(text, parse(COMBINED_FORMAT),
                    presetsWrittenStraight ? Writer.COMBINED : Writer.PARTS);
            default -> new LogPattern(text, parse(text), Writer.PARTS);
        };
    }

    private static Directives.Part[] parse(String format) {
        List<Directives.Part> parts = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i);
            if (c != '%') {
                if (c != '\t' && (c < 0x20 || c > 0x7e)) {
                    throw new IllegalArgumentException("character " + (int) c + " at position " + i + " of \""
                            + format + "\": a pattern's text is printable ASCII (lines are one line of ASCII)");
                }
                literal.append(c);
                i++;
                continue;
            }
            int at = i++;
            String argument = null;
            if (i < format.length() && format.charAt(i) == '{') {
                int close = format.indexOf('}', i);
                if (close < 0) {
                    throw bad(format, at, "has no closing '}'");
                }
                argument = format.substring(i + 1, close);
                if (argument.isEmpty()) {
                    throw bad(format, at, "has an empty {}");
                }
                i = close + 1;
            }
            if (i < format.length() && (format.charAt(i) == '>' || format.charAt(i) == '<')) {
                i++; // the final (or original) status: one and the same here
            }
            if (i >= format.length()) {
                throw bad(format, at, "ends the pattern without a directive letter");
            }
            char directive = format.charAt(i++);
            if (directive == '%') {
                literal.append('%');
                continue;
            }
            Directives.Part part = Directives.part(directive, argument);
            if (part == null) {
                throw bad(format, at, "is unknown; known are " + Directives.KNOWN);
            }
            if (!literal.isEmpty()) {
                parts.add(Directives.text(literal.toString()));
                literal.setLength(0);
            }
            parts.add(part);
        }
        if (!literal.isEmpty()) {
            parts.add(Directives.text(literal.toString()));
        }
        return parts.toArray(new Directives.Part[0]);
    }

    private static IllegalArgumentException bad(String format, int at, String problem) {
        int end = Math.min(format.length(), at + 2);
        int close = format.indexOf('}', at);
        if (at + 1 < format.length() && format.charAt(at + 1) == '{' && close > 0) {
            end = Math.min(format.length(), close + 2);
        }
        return new IllegalArgumentException("directive '" + format.substring(at, end) + "' at position " + at
                + " of \"" + format + "\" " + problem);
    }

    /** Appends the line of {@code entry}, without a line end. */
    void format(LogEntry entry, LineBuffer line) {
        if (writer == Writer.PARTS) {
            for (Directives.Part p : parts) {
                Directives.append(p, line, entry);
            }
        } else {
            PresetLine.format(entry, line, writer == Writer.COMBINED);
        }
    }

    /** The line of {@code entry}, without a line end. */
    public String format(LogEntry entry) {
        LineBuffer line = new LineBuffer(256);
        format(entry, line);
        return line.toString();
    }

    /** The pattern as given (a preset's name, or the directives). */
    @Override
    public String toString() {
        return source;
    }
}
