package dev.weft.httpserver.core;

/**
 * The connections that may make way for a new one when the server is at {@code maxConnections}, best first:
 * every idle connection (waiting for a new request) before any stalled one, the one idle the longest first;
 * then the connections stalled on their client (blocked reading a request or writing, or handshaking, or
 * moving a body or response below its minimum rate: the grace period is a courtesy a server out of
 * connections cannot afford), the one stalled the longest first. Either must have been so for at least
 * {@link #MIN_QUIET_NANOS}: a connection that is progressing at its minimum rate is never a victim, nor one
 * whose client has only just connected or had its answer. Keeps the best {@link #SIZE} of each kind
 * offered, without sorting them all.
 *
 * <p>Built by one thread ({@link #offer}), then used by the registry under its lock ({@link #next}); a
 * ranking goes stale as connections change, so each candidate is checked again ({@link #isVictim}) before it
 * is evicted.
 */
final class VictimRanking {

    /** How long a connection must have been idle or stalled, with nothing moved, to be a victim. */
    static final long MIN_QUIET_NANOS = 1_000_000_000L;
    /** Most candidates kept. */
    static final int SIZE = 64;

    private final long madeNanos;
    private final Connection[] idle = new Connection[SIZE];
    private final long[] idleSince = new long[SIZE];
    private int idleCount;
    private final Connection[] stalled = new Connection[SIZE];
    private final long[] stalledSince = new long[SIZE];
    private int stalledCount;
    private int cursor;

    VictimRanking(long now) {
        this.madeNanos = now;
    }

    /** A ranking with no candidates. */
    static VictimRanking empty() {
        return new VictimRanking(0);
    }

    /** When it was made ({@link System#nanoTime()}). */
    long madeNanos() {
        return madeNanos;
    }

    /** Whether {@code c} may make way for a new connection at {@code now}. */
    static boolean isVictim(Connection c, long now) {
        long since = c.idleSince();
        if (since == 0) {
            since = c.stalledSince(now);
        }
        return since != 0 && now - since >= MIN_QUIET_NANOS;
    }

    /** Ranks {@code c} if it is idle, or a victim as stalled, at {@code now}. */
    void offer(Connection c, long now) {
        long since = c.idleSince();
        if (since != 0) {
            idleCount = insert(idle, idleSince, idleCount, c, since);
            return;
        }
        since = c.stalledSince(now);
        if (since != 0 && now - since >= MIN_QUIET_NANOS) {
            stalledCount = insert(stalled, stalledSince, stalledCount, c, since);
        }
    }

    /** Inserts in order of {@code since} (oldest first), dropping the newest when full; returns the new count. */
    private static int insert(Connection[] cs, long[] sinces, int count, Connection c, long since) {
        if (count == SIZE && since - sinces[SIZE - 1] >= 0) {
            return count; // newer than every kept one
        }
        int i = Math.min(count, SIZE - 1);
        while (i > 0 && since - sinces[i - 1] < 0) {
            cs[i] = cs[i - 1];
            sinces[i] = sinces[i - 1];
            i--;
        }
        cs[i] = c;
        sinces[i] = since;
        return Math.min(count + 1, SIZE);
    }

    /** The next candidate, best first, or null when none is left. */
    Connection next() {
        int i = cursor;
        if (i < idleCount) {
            cursor++;
            return idle[i];
        }
        i -= idleCount;
        if (i < stalledCount) {
            cursor++;
            return stalled[i];
        }
        return null;
    }
}
