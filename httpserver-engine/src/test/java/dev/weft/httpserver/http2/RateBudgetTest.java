package dev.weft.httpserver.http2;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RateBudgetTest {

    @Test
    void allowsABurstOfTwiceTheRateThenRefuses() {
        RateBudget budget = new RateBudget(1);
        assertTrue(budget.trySpend());
        assertTrue(budget.trySpend());
        assertFalse(budget.trySpend(), "a third event within the same instant exceeds a burst of 2");
    }

    @Test
    void aHighRateAllowsProportionallyLargerBursts() {
        RateBudget budget = new RateBudget(100);
        int spent = 0;
        while (budget.trySpend() && spent < 1000) {
            spent++;
        }
        assertTrue(spent >= 200 && spent < 210, "spent " + spent);
    }
}
