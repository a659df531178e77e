package dev.weft.httpserver.core;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class CarrierTurnTest {

    // Long enough that the operating system preempting the test's carrier cannot end a turn by itself.
    private static final long SLICE = TimeUnit.MILLISECONDS.toNanos(50);

    @Test
    void aTurnIsOverOnceItsThreadHasRunForASlice() throws Exception {
        onVirtualThread(() -> {
            CarrierTurn turn = new CarrierTurn(SLICE);
            assertFalse(turn.over(System.nanoTime()));
            spin(2 * SLICE);
            assertTrue(turn.over(System.nanoTime()));
        });
    }

    @Test
    void givingWayStartsANewTurn() throws Exception {
        onVirtualThread(() -> {
            CarrierTurn turn = new CarrierTurn(SLICE);
            spin(2 * SLICE);
            turn.giveWayIfOver();
            assertFalse(turn.over(System.nanoTime()));
        });
    }

    @Test
    void aBlockingCallThatWaitedStartsANewTurn() throws Exception {
        onVirtualThread(() -> {
            CarrierTurn turn = new CarrierTurn(SLICE);
            spin(2 * SLICE);
            long started = System.nanoTime();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // the call waits for its bytes
            turn.blockingCallReturned(started);
            assertFalse(turn.over(System.nanoTime()), "a thread just woken has a whole slice before it gives way");
        });
    }

    @Test
    void aUnitOfWorkCountsAsHeavyOnlyForWhatItRanWithoutWaiting() throws Exception {
        onVirtualThread(() -> {
            CarrierTurn turn = new CarrierTurn(SLICE);
            turn.workStarted(System.nanoTime());
            spin(SLICE);
            turn.workEnded(System.nanoTime());
            assertTrue(turn.lastWorkHeavy(), "ran a whole slice");

            turn.workStarted(System.nanoTime());
            long started = System.nanoTime();
            LockSupport.parkNanos(2 * SLICE); // waits for another thread's work, say
            turn.blockingCallReturned(started);
            turn.workEnded(System.nanoTime());
            assertFalse(turn.lastWorkHeavy(), "it waited: the wait is no work of this thread's");
        });
    }

    @Test
    void aUnitOfWorkMarkedWithAReadingOfTheClockFromBeforeAWaitStartsAtTheWakeUp() throws Exception {
        onVirtualThread(() -> {
            CarrierTurn turn = new CarrierTurn(SLICE);
            long before = System.nanoTime(); // the request loop's reading, taken before the head's read
            LockSupport.parkNanos(2 * SLICE); // the read waits for the rest of the head
            turn.blockingCallReturned(before);

            turn.workStarted(before);
            turn.workEnded(System.nanoTime());

            assertFalse(turn.lastWorkHeavy(), "the wait before the wake-up is no work of this thread's");
        });
    }

    @Test
    void aThreadGivesWayOnlyWhenOthersWaitForACarrierOrTheCountIsUnknown() throws Exception {
        onVirtualThread(() -> {
            for (long waiting : new long[] {0, 1, 5, -1}) {
                AtomicInteger parks = new AtomicInteger();
                CarrierTurn turn = new CarrierTurn(SLICE, () -> waiting, nanos -> parks.incrementAndGet());
                spin(2 * SLICE);

                turn.giveWayIfOver();

                assertEquals(waiting == 0 ? 0 : 1, parks.get(), "parks with " + waiting + " waiting");
                assertFalse(turn.over(System.nanoTime()), "a new turn starts either way");
            }
        });
    }

    @Test
    void aThreadWhoseWorkIsHeavyParksLongerWhenItGivesWay() throws Exception {
        onVirtualThread(() -> {
            AtomicLong parked = new AtomicLong();
            CarrierTurn turn = new CarrierTurn(SLICE, () -> 1, parked::set);
            long t = System.nanoTime();

            turn.workStarted(t);
            turn.workEnded(t + SLICE / 100);
            turn.giveWay();
            assertEquals(1, parked.get(), "after cheap work");

            turn.workStarted(t);
            turn.workEnded(t + SLICE);
            turn.giveWay();
            assertEquals(CarrierTurn.HEAVY_GIVE_WAY_NANOS, parked.get(), "after a request that ran a whole slice");

            turn.workStarted(System.nanoTime() - SLICE);
            turn.giveWay();
            assertEquals(CarrierTurn.HEAVY_GIVE_WAY_NANOS, parked.get(), "inside one that has run a whole slice");
        });
    }

    @Test
    void theSchedulersCountOfWaitingThreadsIsReadFromJdk24On() {
        assumeTrue(Runtime.version().feature() >= 24, "the scheduler's bean came with JDK 24");
        assertTrue(WaitingForCarriers.COUNT.getAsLong() >= 0, "JDK " + Runtime.version() + " tells the count");
    }

    @Test
    void onAPlatformThreadATurnIsNeverOver() {
        CarrierTurn turn = new CarrierTurn(0);
        spin(TimeUnit.MILLISECONDS.toNanos(1));
        assertFalse(turn.over(System.nanoTime()), "the operating system preempts platform threads");
    }

    /** Runs {@code body} on a virtual thread and rethrows what it threw. */
    private static void onVirtualThread(Runnable body) throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        });
        t.join();
        if (failure.get() instanceof Error e) {
            throw e;
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    /** Runs without blocking for {@code nanos}. */
    private static void spin(long nanos) {
        long until = System.nanoTime() + nanos;
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }
}
