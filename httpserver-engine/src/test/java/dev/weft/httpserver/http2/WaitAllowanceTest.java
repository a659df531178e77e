package dev.weft.httpserver.http2;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WaitAllowanceTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void theGracePeriodPlusOneSecondPerRateBytesMayBeWaited() {
        WaitAllowance a = new WaitAllowance(240, 5 * SECOND);
        assertEquals(5 * SECOND, a.remainingNanos());
        a.moved(480);
        assertEquals(7 * SECOND, a.remainingNanos());
        a.waited(6 * SECOND);
        assertEquals(SECOND, a.remainingNanos());
        a.waited(SECOND);
        assertEquals(0, a.remainingNanos(), "the rate is missed once the waits use it up");
    }

    @Test
    void withoutAMinimumRateTheWaitIsUnlimited() {
        WaitAllowance a = new WaitAllowance(0, SECOND);
        a.waited(1000 * SECOND);
        assertEquals(WaitAllowance.UNLIMITED, a.remainingNanos());
    }

    @Test
    void hugeByteCountsDoNotOverflow() {
        WaitAllowance a = new WaitAllowance(1, Long.MAX_VALUE);
        a.moved(Long.MAX_VALUE / 2);
        assertTrue(a.remainingNanos() > 0);
    }
}
