package dev.weft.servlet.response;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * HTTP dates (RFC 9110 §5.6.7): written as IMF-fixdate; read as IMF-fixdate, RFC 850 or asctime, as a recipient
 * must accept them. Stateless.
 */
public final class HttpDates {

    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter RFC_850 =
            DateTimeFormatter.ofPattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter ASCTIME =
            DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US).withZone(ZoneOffset.UTC);

    private HttpDates() {
    }

    /** {@code millis} since the epoch as an IMF-fixdate. */
    public static String format(long millis) {
        return IMF_FIXDATE.format(Instant.ofEpochMilli(millis));
    }

    /** Milliseconds since the epoch of an HTTP date, or -1 when it is none of the three formats. */
    public static long parse(String value) {
        String v = value.strip();
        for (DateTimeFormatter f : new DateTimeFormatter[] {IMF_FIXDATE, RFC_850, ASCTIME}) {
            try {
                return ZonedDateTime.parse(v, f).toInstant().toEpochMilli();
            } catch (DateTimeParseException e) {
                // try the next format
            }
        }
        return -1;
    }
}
