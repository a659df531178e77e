package dev.weft.httpserver.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The admission limit of the platform threads: a few handlers per core while they compute, more while cores idle
 * and exchanges wait, fewer again once the CPU is saturated, never beyond the ceiling.
 */
class AdmissionLimitTest {

    @ParameterizedTest(name = "{0} cores, handlers of {1} ns: floor {2}")
    @CsvSource({
            // cores, CPU per handler, floor
            "2,    50000,  8",   // cheap: four per core
            "2,   200000,  8",
            "2,   600000,  6",   // between: fewer the heavier
            "2,  1000000,  4",   // heavy: two per core
            "2, 20000000,  4",
            "1,  1000000,  3",   // never fewer than the cores and two
            "8,  1000000, 16",
            "8,    50000, 32",
    })
    void theFloorIsTwoToFourPerCoreFewerTheHeavierTheHandlers(int cores, long cpuNanos, int floor) {
        AdmissionLimit limit = new AdmissionLimit(cores, 200);
        for (int i = 0; i < 500; i++) {
            limit.finished(cpuNanos);
        }
        assertEquals(floor, limit.floor());
    }

    @Test
    void idleCoresWithExchangesWaitingLetMoreRun() {
        AdmissionLimit limit = heavy(2, 200);
        int before = limit.limit();

        int after = limit.adjust(0.5, 10, before);

        assertEquals(before + Math.min(10, before / 2), after);
    }

    @Test
    void idleCoresWithNothingWaitingChangeNothing() {
        AdmissionLimit limit = heavy(2, 200);
        int before = limit.limit();

        assertEquals(before, limit.adjust(0.2, 0, 3));
    }

    @Test
    void aSaturatedCpuStepsDownFromWhatRunsToTheFloor() {
        AdmissionLimit limit = heavy(2, 200);
        for (int i = 0; i < 5; i++) {
            limit.adjust(0.5, 100, limit.limit()); // grown while handlers waited
        }
        int grown = limit.limit();
        assertEquals(true, grown > 20, "grew to " + grown);

        assertEquals(11, limit.adjust(0.99, 50, 12), "from what runs now, one less");
        int steps = 0;
        while (limit.limit() > limit.floor()) {
            limit.adjust(1.0, 50, limit.limit());
            steps++;
        }
        assertEquals(4, limit.floor());
        assertEquals(7, steps);
        assertEquals(4, limit.adjust(1.0, 50, 4), "never below the floor");
    }

    @Test
    void aLongLineOfCheapExchangesLetsAShareOfItRunAtOnce() {
        AdmissionLimit cheap = new AdmissionLimit(2, 200);
        for (int i = 0; i < 500; i++) {
            cheap.finished(100_000); // 0.1 ms: 80 at once still stretch each by no more than 4 ms
        }

        assertEquals(60, cheap.adjust(1.0, 240, 8), "a quarter of the line");
        assertEquals(59, cheap.adjust(1.0, 24, 60), "the line shortened: one step back");
        for (int i = 0; i < 100; i++) {
            cheap.adjust(1.0, 24, cheap.limit());
        }
        assertEquals(8, cheap.limit(), "back at the floor");
    }

    @Test
    void heavyExchangesRunFewAtATimeHoweverLongTheLine() {
        AdmissionLimit heavy = heavy(2, 200);

        assertEquals(4, heavy.adjust(1.0, 250, 4), "5 ms each: four at once already stretch each to 10 ms");
    }

    @Test
    void theLimitNeverPassesTheCeiling() {
        AdmissionLimit limit = heavy(2, 10);
        for (int i = 0; i < 20; i++) {
            limit.adjust(0.1, 1000, limit.limit());
        }
        assertEquals(10, limit.limit());
    }

    @Test
    void withoutACpuLoadEveryHandlerMayRunAsOnAPlainPool() {
        AdmissionLimit limit = heavy(2, 200);

        assertEquals(200, limit.adjust(-1, 5, 4));
    }

    @Test
    void cheaperHandlersRaiseTheLimitToTheirFloor() {
        AdmissionLimit limit = heavy(2, 200);
        limit.adjust(1.0, 10, 4);
        assertEquals(4, limit.limit());

        for (int i = 0; i < 500; i++) {
            limit.finished(100_000);
        }

        assertEquals(8, limit.limit());
    }

    /** A limit whose handlers have been measured heavy (the floor two per core). */
    private static AdmissionLimit heavy(int cores, int ceiling) {
        AdmissionLimit limit = new AdmissionLimit(cores, ceiling);
        for (int i = 0; i < 500; i++) {
            limit.finished(5_000_000);
        }
        return limit;
    }
}
