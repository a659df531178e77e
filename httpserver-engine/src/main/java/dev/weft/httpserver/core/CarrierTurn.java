package dev.weft.httpserver.core;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * A virtual thread's turn on its carrier, for the connection (or HTTP/2 stream) it serves.
 *
 * <p>Virtual threads are never preempted, and the JDK's scheduler runs the threads its pollers wake on a
 * carrier's own queue before any thread queued from outside: a connection whose next request is always there
 * when it looks (a pipelining client, or one on the same machine that answers within microseconds) would
 * keep its carrier, and the connections whose wake-ups went through the shared queue would wait for seconds.
 * So a turn ends after {@code timeSlice} of running, at the next point where the thread can stop (after a
 * request, between writes of a response, between messages), and a thread that does heavy work per request
 * (a request took at least half a slice) joins the back of the line before it starts the next one, even when
 * it was woken by a poller.
 *
 * <p>Giving way is a timed park: its wake-up comes from the JDK's timer thread, so the thread is queued from
 * outside, behind those already waiting. A thread whose work is heavy parks for {@value #HEAVY_GIVE_WAY_NANOS} ns,
 * not one: the scheduler's carriers empty one queue before they look at another, and threads that gave way for
 * a nanosecond after each millisecond request were back in the timer's queue before it was empty, so the
 * carriers kept taking from it while the JDK's read poller, queued elsewhere, waited with every connection it
 * would wake (p99 twice Netty's, and stalls of seconds when such threads gave way more often). A thread giving
 * way between cheap pieces of work parks for a nanosecond, which costs the least timer work.
 * ({@link Thread#yield()} does not do it: a yielded thread goes back on its carrier's own queue, or when that is
 * empty onto a queue its carrier takes from first, and runs again at once.) When the scheduler tells that no
 * virtual thread waits for a carrier (JDK 24 and later), there is nobody to give way to, and the thread goes on
 * with a new turn.
 *
 * <p>Owned by the thread that creates it; on a platform thread (which the operating system preempts) it does
 * nothing.
 */
public final class CarrierTurn {

    /**
     * How long a thread whose work is heavy parks when it gives way: long enough for the carriers to turn to the
     * other queues before it is queued again (20 and 50 µs measured alike; 1 ns starved the read poller).
     */
    static final long HEAVY_GIVE_WAY_NANOS = 20_000;

    /** A read that took longer than this waited for its bytes: its thread had parked. */
    private static final long WAITED_NANOS = 20_000;

    private final long sliceNanos;
    /** Virtual threads waiting for a carrier now; -1 when unknown. */
    private final LongSupplier waiting;
    /** Parks the calling thread for the given nanoseconds. */
    private final LongConsumer park;
    private final Thread owner;
    private final boolean active;
    private long startedNanos;
    /** When a read last returned after waiting for its bytes. */
    private long wokenNanos;
    /** Whether {@link #wokenNanos} is set: a blocking call has waited since the turn was made. */
    private boolean woken;
    private long workStartedNanos;
    /** Whether a unit of work has started and not ended. */
    private boolean working;
    /** How long the latest unit of work (a request) ran without waiting: from its start or last wait to its end. */
    private long lastWorkNanos;

    /**
     * A turn for the calling thread, starting now.
     *
     * @param sliceNanos how long a turn lasts; 0 ends it after every unit of work
     */
    public CarrierTurn(long sliceNanos) {
        this(sliceNanos, WaitingForCarriers.COUNT, LockSupport::parkNanos);
    }

    /** With the count of threads waiting for a carrier and the way to give it up given, for tests. */
    CarrierTurn(long sliceNanos, LongSupplier waiting, LongConsumer park) {
        this.sliceNanos = sliceNanos;
        this.waiting = waiting;
        this.park = park;
        this.owner = Thread.currentThread();
        this.active = owner.isVirtual();
        this.startedNanos = System.nanoTime();
        this.wokenNanos = startedNanos - 1;
    }

    /** Whether the turn has lasted a slice; the caller gives way with {@link #giveWay()} where it can. */
    public boolean over(long now) {
        return active && now - startedNanos >= sliceNanos;
    }

    /**
     * Gives the carrier to the threads waiting for one, and starts a new turn once this thread runs again; when
     * the scheduler tells that none waits, only starts a new turn.
     */
    public void giveWay() {
        if (!active) {
            return;
        }
        if (waiting.getAsLong() != 0) {
            park.accept(workHeavy(System.nanoTime()) ? HEAVY_GIVE_WAY_NANOS : 1);
        }
        startedNanos = System.nanoTime();
    }

    /**
     * Gives way if the turn is {@link #over}; for points inside a unit of work, such as between writes. Does
     * nothing when called by another thread than the turn's own (a handler on a platform thread, say).
     */
    public void giveWayIfOver() {
        if (active && Thread.currentThread() == owner && System.nanoTime() - startedNanos >= sliceNanos) {
            giveWay();
        }
    }

    /**
     * Called after a call that may block (a read of the socket or of a WebSocket frame, a write waiting for an
     * HTTP/2 window) that started at {@code callStartedNanos} has returned: if it waited, the thread has just been
     * woken: a new turn starts, and the unit of work in progress counts as heavy only for what it runs from now
     * on. Does nothing for another thread.
     */
    public void blockingCallReturned(long callStartedNanos) {
        if (!active || Thread.currentThread() != owner) {
            return;
        }
        long now = System.nanoTime();
        if (now - callStartedNanos > WAITED_NANOS) {
            startedNanos = now;
            wokenNanos = now;
            woken = true;
            workStartedNanos = now;
        }
    }

    /**
     * Before new work (a request) that was read since {@code sinceNanos}: if the thread waited for it, and its
     * work is heavy (the last request ran for at least half a slice), it goes to the back of the line first,
     * behind the threads that were already waiting; a poller's wake-up would otherwise put it ahead of them.
     */
    public void joinLineIfWokenSince(long sinceNanos) {
        if (active && wokenNanos - sinceNanos >= 0 && lastWorkHeavy()) {
            giveWay();
        }
    }

    /** Whether the latest unit of work ran for at least half a slice without waiting. */
    boolean lastWorkHeavy() {
        return 2 * lastWorkNanos >= sliceNanos;
    }

    /** Whether the unit of work in progress, or else the latest one, has run for at least half a slice. */
    boolean workHeavy(long now) {
        return working ? 2 * (now - workStartedNanos) >= sliceNanos : lastWorkHeavy();
    }

    /**
     * Whether {@code t}, a thread blocked in a socket read or write as far as its connection knows, has in fact
     * been woken and only waits for a carrier (or runs already): its bytes came in time, and a deadline or
     * minimum rate must not blame the client for our scheduling. False for platform threads, whose blocking
     * reads show as runnable throughout.
     */
    static boolean wokenUp(Thread t) {
        return t != null && t.isVirtual() && t.getState() == Thread.State.RUNNABLE;
    }

    /**
     * Marks the start of a unit of work (a request) at {@code now}, or at the thread's last wake-up if that came
     * later (a reading of the clock taken before a read that waited).
     */
    public void workStarted(long now) {
        workStartedNanos = woken && wokenNanos - now > 0 ? wokenNanos : now;
        working = true;
    }

    /** Marks the end of the unit of work started last. */
    public void workEnded(long now) {
        lastWorkNanos = now - workStartedNanos;
        working = false;
    }
}
