package dev.weft.servlet.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition another thread makes true, polling it. The limit only guards against a hang: a passing
 * test is done long before it.
 */
public final class Await {

    private static final Duration LIMIT = Duration.ofSeconds(20);

    private Await() {
    }

    /** Waits until {@code condition} holds; fails with {@code what} if it does not within the limit. */
    public static void until(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + LIMIT + " waiting for " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
