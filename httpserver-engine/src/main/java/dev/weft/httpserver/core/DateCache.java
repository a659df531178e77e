package dev.weft.httpserver.core;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} header value (RFC 9110 §5.6.7 IMF-fixdate) for the current second, formatted once per
 * second and shared by all connections.
 */
public final class DateCache {

    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private record Entry(long second, String value, byte[] headerLine) {
    }

    private static volatile Entry current = format(System.currentTimeMillis() / 1000);

    private DateCache() {
    }

    private static Entry format(long second) {
        String v = imfFixdate(second);
        return new Entry(second, v, ("Date: " + v + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
    }

    /** {@code epochSecond} as an IMF-fixdate, e.g. {@code Sun, 06 Nov 1994 08:49:37 GMT}. */
    public static String imfFixdate(long epochSecond) {
        // Not RFC_1123_DATE_TIME: it omits the day's leading zero, which IMF-fixdate requires.
        return IMF_FIXDATE.format(Instant.ofEpochSecond(epochSecond));
    }

    private static Entry entry() {
        long now = System.currentTimeMillis() / 1000;
        Entry e = current;
        if (e.second != now) {
            e = format(now);
            current = e;
        }
        return e;
    }

    /** The current date as an IMF-fixdate string. */
    public static String value() {
        return entry().value;
    }

    /** {@code "Date: <value>\r\n"} as bytes; callers must not modify the array. */
    public static byte[] headerLine() {
        return entry().headerLine;
    }
}
