package dev.weft.httpserver.core;

import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Byte arrays of one size, lent to connections while they have bytes to write and given back when they wait for
 * the next request, so that an idle keep-alive connection holds no output buffer. Keeps at most {@code capacity}
 * arrays: more are left to the garbage collector, and an empty pool allocates.
 *
 * <p>Never waits: every connection thread of every server takes and gives twice per request, and a virtual thread
 * that queued for the pool's lock would park and be woken again, which costs far more than the array. A thread
 * that finds another one in the pool allocates ({@link #take}) or leaves its array to the garbage collector
 * ({@link #give}) instead.
 */
public final class BufferPool {

    private final int arraySize;
    private final byte[][] free;
    private final Lock lock;
    private int count;

    /** A pool of arrays of {@code arraySize} bytes that keeps at most {@code capacity} of them. */
    public BufferPool(int arraySize, int capacity) {
        this(arraySize, capacity, new ReentrantLock());
    }

    /** As {@link #BufferPool(int, int)}, guarded by {@code lock} (which tests hold to make the pool busy). */
    BufferPool(int arraySize, int capacity, Lock lock) {
        if (arraySize < 1 || capacity < 0) {
            throw new IllegalArgumentException("arraySize " + arraySize + ", capacity " + capacity);
        }
        this.arraySize = arraySize;
        this.free = new byte[capacity][];
        this.lock = lock;
    }

    /** The size of the arrays it lends. */
    public int arraySize() {
        return arraySize;
    }

    /** An array of {@link #arraySize()} bytes, kept or new; its contents are undefined. Never waits. */
    public byte[] take() {
        if (lock.tryLock()) {
            try {
                if (count > 0) {
                    byte[] b = free[--count];
                    free[count] = null;
                    return b;
                }
            } finally {
                lock.unlock();
            }
        }
        return new byte[arraySize];
    }

    /** Gives back an array {@link #take()} lent, which its taker must no longer use. Never waits. */
    public void give(byte[] b) {
        if (b.length != arraySize) {
            throw new IllegalArgumentException("an array of " + b.length + " bytes, not " + arraySize);
        }
        if (!lock.tryLock()) {
            return;
        }
        try {
            if (count < free.length) {
                free[count++] = b;
            }
        } finally {
            lock.unlock();
        }
    }

    /** How many arrays it keeps now. */
    public int kept() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }
}
