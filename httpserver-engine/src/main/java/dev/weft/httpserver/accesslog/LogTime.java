package dev.weft.httpserver.accesslog;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code %t} time, {@code [27/Nov/2026:06:13:03 +0000]} in the system's time zone, formatted once per second
 * and shared by all threads.
 */
final class LogTime {

    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("'['dd/MMM/yyyy:HH:mm:ss Z']'", Locale.US);

    private record Entry(long second, byte[] text) {
    }

    private static volatile Entry current = format(System.currentTimeMillis() / 1000);

    /** A reading of the wall clock and {@link System#nanoTime()} together. */
    private record Clock(long nanos, long millis) {
    }

    /** How long a reading of the wall clock serves before it is taken again. */
    private static final long CLOCK_REUSE_NANOS = 100_000_000;

    private static volatile Clock clock = new Clock(System.nanoTime(), System.currentTimeMillis());

    private LogTime() {
    }

    private static Entry format(long second) {
        return new Entry(second, FORMAT.format(Instant.ofEpochSecond(second).atZone(ZoneId.systemDefault()))
                .getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The wall-clock time at {@code nanos} ({@link System#nanoTime()}) in epoch milliseconds, from a reading of the
     * wall clock at most {@value #CLOCK_REUSE_NANOS} ns old: precise enough for a log line, and no clock read per line.
     */
    static long wallMillis(long nanos) {
        Clock c = clock;
        long since = nanos - c.nanos;
        if (since < 0 || since >= CLOCK_REUSE_NANOS) {
            c = new Clock(System.nanoTime(), System.currentTimeMillis());
            clock = c;
            since = nanos - c.nanos;
        }
        return c.millis + Math.floorDiv(since, 1_000_000);
    }

    /** The bracketed time of {@code epochMillis}, ASCII; not to be modified. */
    static byte[] of(long epochMillis) {
        long second = Math.floorDiv(epochMillis, 1000);
        Entry e = current;
        if (e.second != second) {
            e = format(second);
            current = e;
        }
        return e.text;
    }
}
