package dev.weft.httpserver.accesslog;

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

    private record Entry(long second, String text) {
    }

    private static volatile Entry current = format(System.currentTimeMillis() / 1000);

    private LogTime() {
    }

    private static Entry format(long second) {
        return new Entry(second, FORMAT.format(Instant.ofEpochSecond(second).atZone(ZoneId.systemDefault())));
    }

    /** The bracketed time of {@code epochMillis}. */
    static String of(long epochMillis) {
        long second = Math.floorDiv(epochMillis, 1000);
        Entry e = current;
        if (e.second != second) {
            e = format(second);
            current = e;
        }
        return e.text;
    }
}
