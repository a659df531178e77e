package dev.weft.httpserver.files;

import dev.weft.httpserver.core.DateCache;

import java.time.DayOfWeek;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.format.TextStyle;
import java.util.Locale;

/**
 * HTTP-date (RFC 9110 §5.6.7): formatting as IMF-fixdate, parsing of IMF-fixdate and the two obsolete forms
 * (rfc850-date, asctime-date) that recipients MUST accept. Stateless.
 */
final class HttpDates {

    // parsing only; formatting is DateCache.imfFixdate, as for the Date header
    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    // the obsolete forms are parsed without their day name, which is checked afterwards (a two-digit year is
    // only resolved after parsing)
    private static final DateTimeFormatter RFC850 =
            DateTimeFormatter.ofPattern("dd-MMM-yy HH:mm:ss 'GMT'", Locale.US);
    private static final DateTimeFormatter ASCTIME =
            DateTimeFormatter.ofPattern("MMM ppd HH:mm:ss yyyy", Locale.US);

    private HttpDates() {
    }

    /** {@code epochSeconds} as an IMF-fixdate, e.g. {@code Sun, 06 Nov 1994 08:49:37 GMT}. */
    static String format(long epochSeconds) {
        return DateCache.imfFixdate(epochSeconds);
    }

    /** The epoch seconds of an HTTP-date in any of its three forms, or {@link Long#MIN_VALUE} if it is not one. */
    static long parse(String value) {
        String v = value.strip();
        try {
            LocalDateTime t = LocalDateTime.parse(v, IMF_FIXDATE);
            return t.toEpochSecond(ZoneOffset.UTC);
        } catch (DateTimeParseException ignored) {
            // try the obsolete forms
        }
        try {
            int comma = v.indexOf(", ");
            LocalDateTime t = LocalDateTime.parse(v.substring(comma + 2), RFC850);
            // §5.6.7: a two-digit year more than 50 years in the future is the most recent past year with those digits
            if (t.getYear() > LocalDateTime.now(ZoneOffset.UTC).getYear() + 50) {
                t = t.minusYears(100);
            }
            return checkedDay(t, v.substring(0, comma), TextStyle.FULL);
        } catch (DateTimeParseException | IndexOutOfBoundsException ignored) {
            // next form
        }
        try {
            if (v.length() < 4 || v.charAt(3) != ' ') {
                return Long.MIN_VALUE;
            }
            LocalDateTime t = LocalDateTime.parse(v.substring(4), ASCTIME);
            return checkedDay(t, v.substring(0, 3), TextStyle.SHORT);
        } catch (DateTimeParseException ignored) {
            return Long.MIN_VALUE;
        }
    }

    private static long checkedDay(LocalDateTime t, String day, TextStyle style) {
        DayOfWeek d = t.getDayOfWeek();
        return d.getDisplayName(style, Locale.US).equals(day) ? t.toEpochSecond(ZoneOffset.UTC) : Long.MIN_VALUE;
    }
}
