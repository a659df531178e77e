package dev.weft.micronaut.app;

import jakarta.inject.Singleton;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lets a test hold a route at a known point: the route signals {@link #entered} and waits for {@link #release};
 * {@link #reset()} arms both again for the next test.
 */
@Singleton
public class Gate {

    private volatile CountDownLatch entered = new CountDownLatch(1);
    private volatile CountDownLatch release = new CountDownLatch(1);

    public void reset() {
        entered = new CountDownLatch(1);
        release = new CountDownLatch(1);
    }

    /** Called by a route: signals it is running, then waits (at most 30 s) for the test to release it. */
    public void pass() {
        entered.countDown();
        try {
            if (!release.await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("The test never released the gate");
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    public boolean awaitEntered() throws InterruptedException {
        return entered.await(30, TimeUnit.SECONDS);
    }

    public void release() {
        release.countDown();
    }
}
