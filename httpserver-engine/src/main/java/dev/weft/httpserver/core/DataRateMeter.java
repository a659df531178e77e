package dev.weft.httpserver.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Tells whether a client moves the bytes of one request body or one response too slowly, counting only the
 * time the server waits for it: the socket reads or writes that block. After a grace period of such waiting
 * the bytes moved must keep up with a minimum rate, cumulatively over the measurement:
 * {@code bytes ≥ minRate × (waited − grace)}. Time the server spends on anything else (a handler that is not
 * reading, a stream with nothing to send) is not the client's fault and does not count.
 *
 * <p>The thread doing the I/O brackets each socket operation with {@link #begin} and {@link #end} and starts
 * a new measurement with {@link #restart} while no operation is in progress; the sweeper calls
 * {@link #tooSlow} from its own thread. No allocation and no timers: a few plain stores per operation.
 * Totals only grow (a restart moves baselines instead of zeroing them), and the writer and the sweeper
 * access the fields in orders that make a racing read err towards "fast enough", never the other way.
 */
public final class DataRateMeter {

    private static final VarHandle STARTED;
    private static final VarHandle WAITED;
    private static final VarHandle BYTES;
    private static final VarHandle WAITED_BASE;
    private static final VarHandle BYTES_BASE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STARTED = l.findVarHandle(DataRateMeter.class, "startedNanos", long.class);
            WAITED = l.findVarHandle(DataRateMeter.class, "waitedNanos", long.class);
            BYTES = l.findVarHandle(DataRateMeter.class, "bytes", long.class);
            WAITED_BASE = l.findVarHandle(DataRateMeter.class, "waitedBase", long.class);
            BYTES_BASE = l.findVarHandle(DataRateMeter.class, "bytesBase", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long bytesPerSecond;
    private final long graceNanos;
    /** When the operation in progress started ({@link System#nanoTime()}, never 0), or 0 when none is. */
    @SuppressWarnings("unused") // through STARTED
    private long startedNanos;
    /** Time spent in finished operations since this meter was made; only grows. */
    @SuppressWarnings("unused") // through WAITED
    private long waitedNanos;
    /** Bytes moved by finished operations since this meter was made; only grows. */
    @SuppressWarnings("unused") // through BYTES
    private long bytes;
    /** {@link #waitedNanos} and {@link #bytes} when the current measurement started. */
    @SuppressWarnings("unused") // through WAITED_BASE
    private long waitedBase;
    @SuppressWarnings("unused") // through BYTES_BASE
    private long bytesBase;

    /**
     * @param bytesPerSecond the minimum rate; 0 turns the check off (operations are still stamped)
     * @param graceNanos     waiting allowed before the rate is enforced
     */
    public DataRateMeter(long bytesPerSecond, long graceNanos) {
        if (bytesPerSecond < 0 || graceNanos < 0) {
            throw new IllegalArgumentException("rate and grace must not be negative");
        }
        this.bytesPerSecond = bytesPerSecond;
        this.graceNanos = graceNanos;
    }

    /** A meter that only stamps operations (for {@link #waitingSince()}) and never finds them too slow. */
    public static DataRateMeter unlimited() {
        return new DataRateMeter(0, 0);
    }

    /** Starts a new measurement (a new body or response); call while no operation is in progress. */
    public void restart() {
        // The waited base first: a sweeper that sees the new bytes base also sees the new waited base.
        WAITED_BASE.setRelease(this, (long) WAITED.get(this));
        BYTES_BASE.setRelease(this, (long) BYTES.get(this));
    }

    /** A socket operation starts at {@code now} ({@link System#nanoTime()}). */
    public void begin(long now) {
        STARTED.setRelease(this, now == 0 ? 1 : now);
    }

    /** The operation begun last ended at {@code now}, having moved {@code moved} bytes. */
    public void end(long now, long moved) {
        long started = (long) STARTED.get(this);
        if (started == 0) {
            return;
        }
        // Bytes first, then the end of the wait, then its duration: a sweeper that sees the duration also
        // sees the bytes, and never adds an operation's time twice.
        BYTES.setRelease(this, (long) BYTES.get(this) + moved);
        STARTED.setRelease(this, 0L);
        WAITED.setRelease(this, (long) WAITED.get(this) + (now - started));
    }

    /** When the operation in progress started, or 0 when none is; any thread. */
    public long waitingSince() {
        return (long) STARTED.getAcquire(this);
    }

    /**
     * Whether an operation is in progress and the measurement has fallen below the minimum rate at
     * {@code now}; any thread.
     */
    public boolean tooSlow(long now) {
        return waitedIfBehind(now, graceNanos) != NOT_BEHIND;
    }

    /**
     * Since when ({@link System#nanoTime()}) the client has kept the server waiting, if an operation is in
     * progress and the measurement is below the minimum rate even with no grace period: {@code now} less the
     * time waited. 0 if it is not (or there is no minimum). For choosing victims when the server is short of
     * connections, which cannot afford the grace period; any thread.
     */
    public long behindSince(long now) {
        long waited = waitedIfBehind(now, 0);
        if (waited == NOT_BEHIND) {
            return 0;
        }
        long since = now - waited;
        return since == 0 ? 1 : since;
    }

    private static final long NOT_BEHIND = -1;

    /** The time waited in this measurement if, after {@code grace}, it is below the minimum rate. */
    private long waitedIfBehind(long now, long grace) {
        if (bytesPerSecond == 0) {
            return NOT_BEHIND;
        }
        // Read in the reverse of the writer's order (see end and restart): a race can only make the waited
        // time look shorter or the bytes look more, never a fast client slow.
        long waited = (long) WAITED.getAcquire(this);
        long moved = (long) BYTES.getAcquire(this);
        long started = (long) STARTED.getAcquire(this);
        if (started == 0) {
            return NOT_BEHIND;
        }
        moved -= (long) BYTES_BASE.getAcquire(this);
        waited -= (long) WAITED_BASE.getAcquire(this);
        if (waited < 0 || moved < 0) {
            return NOT_BEHIND; // a restart raced with this read
        }
        waited += now - started;
        long over = waited - grace;
        // moved < rate × over / 1e9, in floating point: both products can pass 2^63.
        return over > 0 && moved * 1e9 < (double) bytesPerSecond * over ? waited : NOT_BEHIND;
    }

    /** The minimum rate in bytes per second; 0 when off. */
    public long bytesPerSecond() {
        return bytesPerSecond;
    }
}
