package dev.weft.httpserver.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DataRateMeter}: bytes moved must keep up with the minimum rate over the time operations waited, after
 * the grace period. The clock is the test's: every time is given in milliseconds from an arbitrary origin.
 */
class DataRateMeterTest {

    private static final long MS = 1_000_000L;
    /** A clock origin far from 0, so that nothing depends on nanoTime values being small or positive. */
    private static final long T0 = Long.MAX_VALUE - 10_000 * MS;

    /**
     * Each case: finished operations as {@code {start ms, end ms, bytes}}, then one in progress since
     * {@code blockedSince} ms (or none: -1), checked at {@code now} ms against 240 B/s after a 5 s grace.
     */
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("nothing in progress is never too slow", new long[][] {{0, 9000, 0}}, -1, 9500, false),
                Arguments.of("blocked within the grace period", new long[][] {}, 0, 5000, false),
                Arguments.of("blocked past the grace period with nothing moved", new long[][] {}, 0, 5001, true),
                Arguments.of("one byte every 2 s is far too slow",
                        new long[][] {{0, 2000, 1}, {2000, 4000, 1}, {4000, 6000, 1}}, 6000, 6100, true),
                Arguments.of("exactly the minimum rate after the grace period",
                        new long[][] {{0, 5000, 0}, {5000, 6000, 240}}, 6000, 6000, false),
                Arguments.of("just below the minimum rate after the grace period",
                        new long[][] {{0, 5000, 0}, {5000, 6000, 239}}, 6000, 6000, true),
                Arguments.of("bytes moved early count for later",
                        new long[][] {{0, 10, 24_000}}, 10, 104_000, false),
                Arguments.of("until they are used up",
                        new long[][] {{0, 10, 24_000}}, 10, 105_100, true),
                Arguments.of("time not spent waiting does not count",
                        new long[][] {{0, 3000, 0}, {60_000, 62_000, 0}}, 120_000, 120_000, false),
                Arguments.of("waits add up across operations",
                        new long[][] {{0, 3000, 0}, {60_000, 62_000, 0}}, 120_000, 120_001, true),
                Arguments.of("a fast large transfer", new long[][] {{0, 8000, 1L << 30}}, 8000, 9000, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void judgesTheRateOverTheTimeSpentWaiting(String name, long[][] finished, long blockedSince, long now,
                                              boolean tooSlow) {
        DataRateMeter meter = new DataRateMeter(240, 5000 * MS);
        meter.restart();
        for (long[] op : finished) {
            meter.begin(T0 + op[0] * MS);
            meter.end(T0 + op[1] * MS, op[2]);
        }
        if (blockedSince >= 0) {
            meter.begin(T0 + blockedSince * MS);
        }
        assertEquals(tooSlow, meter.tooSlow(T0 + now * MS), name);
    }

    @Test
    void aRestartForgetsThePreviousMeasurement() {
        DataRateMeter meter = new DataRateMeter(240, 5000 * MS);
        meter.begin(T0);
        meter.end(T0 + 60_000 * MS, 0); // the previous response stalled for a minute
        meter.restart();
        meter.begin(T0 + 70_000 * MS);
        assertFalse(meter.tooSlow(T0 + 74_000 * MS), "the new response is within its own grace period");
        assertTrue(meter.tooSlow(T0 + 75_001 * MS));
    }

    @Test
    void aRestartForgetsTheBytesOfThePreviousMeasurementToo() {
        DataRateMeter meter = new DataRateMeter(240, 0);
        meter.begin(T0);
        meter.end(T0 + MS, 1_000_000);
        meter.restart();
        meter.begin(T0 + 2 * MS);
        assertTrue(meter.tooSlow(T0 + 1002 * MS), "a megabyte of the previous response is no credit");
    }

    @Test
    void zeroRateIsNeverTooSlowButStillStampsTheOperationInProgress() {
        DataRateMeter meter = DataRateMeter.unlimited();
        assertEquals(0, meter.waitingSince());
        meter.begin(T0);
        assertEquals(T0, meter.waitingSince());
        assertFalse(meter.tooSlow(T0 + 3_600_000 * MS));
        meter.end(T0 + MS, 0);
        assertEquals(0, meter.waitingSince());
    }

    @Test
    void anOperationStartingAtNanoTimeZeroStillCountsAsInProgress() {
        DataRateMeter meter = new DataRateMeter(1, 0);
        meter.begin(0);
        assertTrue(meter.waitingSince() != 0);
        assertTrue(meter.tooSlow(2000 * MS));
    }

    @Test
    void negativeSettingsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new DataRateMeter(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> new DataRateMeter(1, -1));
    }
}
