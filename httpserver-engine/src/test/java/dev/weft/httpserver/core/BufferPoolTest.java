package dev.weft.httpserver.core;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link BufferPool}: lends what it keeps, last given first, and keeps no more than its capacity. */
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
    void anArrayOfAnotherSizeIsRefused() {
        BufferPool pool = new BufferPool(64, 1);
        assertThrows(IllegalArgumentException.class, () -> pool.give(new byte[32]));
    }
}
