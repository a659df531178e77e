package dev.weft.httpserver.core;

import org.junit.jupiter.api.Test;

import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link BufferPool}: lends what it keeps, last given first, keeps no more than its capacity, and never makes a
 * thread wait for another.
 */
class BufferPoolTest {

    @Test
    void anEmptyPoolAllocatesArraysOfItsSize() {
        BufferPool pool = new BufferPool(64, 2);
        assertEquals(64, pool.take().length);
        assertEquals(0, pool.kept());
    }

    @Test
    void anArrayGivenBackIsLentAgain() {
        BufferPool pool = new BufferPool(64, 2);
        byte[] a = pool.take();
        byte[] b = pool.take();
        pool.give(a);
        pool.give(b);
        assertEquals(2, pool.kept());
        assertSame(b, pool.take());
        assertSame(a, pool.take());
        assertEquals(0, pool.kept());
    }

    @Test
    void arraysBeyondTheCapacityAreLeftToTheGarbageCollector() {
        BufferPool pool = new BufferPool(64, 1);
        byte[] a = pool.take();
        byte[] b = pool.take();
        pool.give(a);
        pool.give(b);
        assertEquals(1, pool.kept());
        assertSame(a, pool.take());
        assertNotSame(b, pool.take());
    }

    @Test
    void aThreadThatFindsThePoolBusyAllocatesOrDropsInsteadOfWaiting() throws Exception {
        ReentrantLock lock = new ReentrantLock();
        BufferPool pool = new BufferPool(64, 2, lock);
        byte[] kept = pool.take();
        pool.give(kept);
        lock.lock(); // another thread is in the pool
        try {
            FutureTask<byte[]> take = new FutureTask<>(pool::take);
            FutureTask<Void> give = new FutureTask<>(() -> pool.give(new byte[64]), null);
            Thread.ofVirtual().start(take);
            Thread.ofVirtual().start(give);
            byte[] taken = take.get(10, TimeUnit.SECONDS);
            give.get(10, TimeUnit.SECONDS);
            assertNotSame(kept, taken);
            assertEquals(64, taken.length);
        } finally {
            lock.unlock();
        }
        assertEquals(1, pool.kept(), "the array given while the pool was busy was dropped");
        assertSame(kept, pool.take());
    }

    @Test
    void anArrayOfAnotherSizeIsRefused() {
        BufferPool pool = new BufferPool(64, 1);
        assertThrows(IllegalArgumentException.class, () -> pool.give(new byte[32]));
    }
}
