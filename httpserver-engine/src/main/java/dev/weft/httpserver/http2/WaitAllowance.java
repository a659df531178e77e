package dev.weft.httpserver.http2;

/**
 * How much longer one direction of a stream may wait for the client under a minimum data rate: the grace period,
 * plus one second for every {@code bytesPerSecond} bytes the client has moved so far, less the time already
 * spent waiting for it. Only time spent waiting for the client counts (a handler busy elsewhere is not the
 * client's fault), so a blocked wait can bound itself by {@link #remainingNanos()} and needs no timer. Not
 * thread-safe: its owner guards it.
 */
final class WaitAllowance {

    /** What {@link #remainingNanos()} gives without a minimum rate. */
    static final long UNLIMITED = Long.MAX_VALUE;

    private final long bytesPerSecond;
    private final long graceNanos;
    private long bytes;
    private long waitedNanos;

    /**
     * @param bytesPerSecond the minimum rate; 0 for none
     * @param graceNanos     the wait allowed before any byte has moved
     */
    WaitAllowance(long bytesPerSecond, long graceNanos) {
        this.bytesPerSecond = bytesPerSecond;
        this.graceNanos = graceNanos;
    }

    /** The client moved {@code n} more bytes. */
    void moved(long n) {
        bytes += n;
    }

    /** Something waited {@code nanos} for the client. */
    void waited(long nanos) {
        waitedNanos += nanos;
    }

    /** How much longer a wait for the client may take; 0 or less once the rate is missed. */
    long remainingNanos() {
        if (bytesPerSecond == 0) {
            return UNLIMITED;
        }
        long earned = bytes > Long.MAX_VALUE / 1_000_000_000L ? Long.MAX_VALUE / 2
                : bytes * 1_000_000_000L / bytesPerSecond;
        long allowed = Math.min(Long.MAX_VALUE / 2, graceNanos) + Math.min(Long.MAX_VALUE / 2, earned);
        return allowed - waitedNanos;
    }

    /** The minimum rate, bytes per second (0: none). */
    long bytesPerSecond() {
        return bytesPerSecond;
    }
}
