package dev.weft.httpserver.core;

import dev.weft.httpserver.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cached {@code Date} value: IMF-fixdate (RFC 9110 §5.6.7) of the current second. */
class DateCacheTest {

    /** {@code IMF-fixdate = day-name "," SP date1 SP time-of-day SP GMT}, date1 = 2DIGIT SP month SP 4DIGIT. */
    private static final Pattern IMF_FIXDATE = Pattern.compile(
            "(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \\d{4} "
                    + "\\d{2}:\\d{2}:\\d{2} GMT");

    /** Formats {@code epochSecond} through the cache's own (private) formatting step. */
    private static String formatted(long epochSecond) throws ReflectiveOperationException {
        Method format = DateCache.class.getDeclaredMethod("format", long.class);
        format.setAccessible(true);
        Object entry = format.invoke(null, epochSecond);
        for (RecordComponent rc : entry.getClass().getRecordComponents()) {
            if (rc.getName().equals("value")) {
                Method accessor = rc.getAccessor();
                accessor.setAccessible(true);
                return (String) accessor.invoke(entry);
            }
        }
        throw new AssertionError("no value component");
    }

    @Test
    void valueHasTheImfFixdateShape() {
        String v = DateCache.value();

        assertTrue(IMF_FIXDATE.matcher(v).matches(), v);
    }

    @Test
    void valueParsesAsRfc1123AndIsTheCurrentSecond() {
        long before = Instant.now().getEpochSecond();
        ZonedDateTime parsed = ZonedDateTime.parse(DateCache.value(), DateTimeFormatter.RFC_1123_DATE_TIME);
        long after = Instant.now().getEpochSecond();

        long second = parsed.toEpochSecond();
        assertTrue(second >= before && second <= after, () -> parsed + " is not between " + Instant.ofEpochSecond(
                before) + " and " + Instant.ofEpochSecond(after));
    }

    @Test
    void valueIsInGmt() {
        ZonedDateTime parsed = ZonedDateTime.parse(DateCache.value(), DateTimeFormatter.RFC_1123_DATE_TIME);

        assertEquals(0, parsed.getOffset().getTotalSeconds());
    }

    @Test
    void headerLineIsTheValueAsAFieldLine() {
        // Retry across a second boundary, when value() and headerLine() may see different seconds.
        for (int attempt = 0; ; attempt++) {
            String v = DateCache.value();
            String line = new String(DateCache.headerLine(), StandardCharsets.ISO_8859_1);
            if (line.equals("Date: " + v + "\r\n") || attempt == 3) {
                assertEquals("Date: " + v + "\r\n", line);
                return;
            }
        }
    }

    @ParameterizedTest
    @CsvSource({
            "0,          'Thu, 01 Jan 1970 00:00:00 GMT'",
            "784111777,  'Sun, 06 Nov 1994 08:49:37 GMT'",
            "1709600645, 'Tue, 05 Mar 2024 01:04:05 GMT'",
            "1735689599, 'Tue, 31 Dec 2024 23:59:59 GMT'",
            "4102444800, 'Fri, 01 Jan 2100 00:00:00 GMT'",
    })
    void formattingPadsDayAndTimeToTwoDigits(long epochSecond, String expected) throws Exception {
        assertEquals(expected, formatted(epochSecond));
    }

    @ParameterizedTest
    @CsvSource({"0", "784111777", "1709600645", "1735689599"})
    void formattedValueRoundTripsThroughRfc1123Parsing(long epochSecond) throws Exception {
        ZonedDateTime parsed = ZonedDateTime.parse(formatted(epochSecond), DateTimeFormatter.RFC_1123_DATE_TIME);

        assertEquals(epochSecond, parsed.toEpochSecond());
    }

    @Test
    void valueAdvancesWithTheClock() {
        String before = DateCache.value();

        String after = Await.value("the cached value to change with the next second", DateCache::value,
                v -> !v.equals(before));

        assertTrue(ZonedDateTime.parse(after, DateTimeFormatter.RFC_1123_DATE_TIME)
                .isAfter(ZonedDateTime.parse(before, DateTimeFormatter.RFC_1123_DATE_TIME)), before + " -> " + after);
    }
}
