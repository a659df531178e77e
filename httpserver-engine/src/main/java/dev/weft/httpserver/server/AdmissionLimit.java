package dev.weft.httpserver.server;

/**
 * How many handlers the server's platform threads may run at once, adjusted to what the handlers do.
 *
 * <p>Handlers that compute run best a few at a time, in arrival order: two cores shared by thirty handlers
 * finish each one late (the operating system's time slices make the slowest wait whole rounds), while two
 * cores taking them in turn finish most early and none late, at the same or higher throughput. Handlers that
 * wait (for a database, a remote service, a lock) need many at once, or the cores idle. So the limit starts
 * low, at a floor of two to four per core (fewer the more CPU a handler takes), and grows while exchanges wait
 * for a thread and the machine has CPU to spare; it shrinks again, one at a time, while the machine's CPU is
 * saturated. A handler that has run
 * longer than {@link #LONG_RUNNING_NANOS} no longer counts against it (see {@link HandlerPool}), so one that
 * computes without end, or is stuck, cannot make the others wait for it.
 *
 * <p>Not thread-safe: the pool calls it under its lock.
 */
final class AdmissionLimit {

    /** A handler running longer than this no longer counts against the limit. */
    static final long LONG_RUNNING_NANOS = 50_000_000L;
    /** Below this CPU load, exchanges waiting for a thread may have more run at once. */
    static final double SPARE_BELOW = 0.90;
    /** From this CPU load on, fewer run at once (down to the floor). */
    static final double SATURATED_FROM = 0.95;

    /** Handlers costing this much CPU or less get the most at once above the floor ({@link #CHEAP_FACTOR}). */
    static final long CHEAP_NANOS = 200_000L;
    /** Handlers costing this much CPU or more get the fewest at once ({@link #HEAVY_FACTOR}). */
    static final long HEAVY_NANOS = 1_000_000L;
    static final double CHEAP_FACTOR = 4;
    /** With a long line waiting, at least this share of it (one in so many) may run. */
    static final int BACKLOG_SHARE = 4;
    /** How long a handler may be stretched by sharing the cores with the others let in for a long line. */
    static final long STRETCH_NANOS = 4_000_000L;
    static final double HEAVY_FACTOR = 2;

    private final int cores;
    private final int ceiling;
    private int floor;
    private int limit;
    /** Moving average of the CPU time of the handlers that finished, in nanoseconds; 0 before the first. */
    private double cpuNanos;

    /**
     * @param cores   the cores the server may use
     * @param ceiling the most handlers that may ever run at once ({@code threads.max})
     */
    AdmissionLimit(int cores, int ceiling) {
        this.cores = cores;
        this.ceiling = ceiling;
        this.floor = floorFor(HEAVY_NANOS);
        this.limit = Math.min(ceiling, 2 * floor);
    }

    /**
     * The least that may run at once, from the cores and what a handler costs: cheap handlers (a static file,
     * a small JSON answer) four per core, so that the hand-offs between a connection's thread and the handler's
     * overlap; heavy ones (milliseconds of CPU) two per core, so that they take the cores in turn rather than
     * share them.
     */
    private int floorFor(double cpu) {
        double f = cpu <= CHEAP_NANOS ? CHEAP_FACTOR : cpu >= HEAVY_NANOS ? HEAVY_FACTOR
                : CHEAP_FACTOR - (CHEAP_FACTOR - HEAVY_FACTOR) * (cpu - CHEAP_NANOS) / (HEAVY_NANOS - CHEAP_NANOS);
        return Math.min(ceiling, Math.max(cores + 2, (int) Math.round(cores * f)));
    }

    /** Records the CPU time a handler took; moves the floor (and the limit up to it) with the average. */
    void finished(long cpuNanosTaken) {
        cpuNanos = cpuNanos == 0 ? cpuNanosTaken : cpuNanos + (cpuNanosTaken - cpuNanos) / 32;
        floor = floorFor(cpuNanos);
        if (limit < floor) {
            limit = floor;
        }
    }

    /** The number of counted handlers that may run now. */
    int limit() {
        return limit;
    }

    /** The least the limit goes down to. */
    int floor() {
        return floor;
    }

    /**
     * Adjusts the limit after a sampling period.
     *
     * @param cpuLoad share of the CPU available to this process that was busy over the period (all processes),
     *                from 0 to 1; negative when unknown, which makes the limit the ceiling (every handler runs
     *                at once, as on a plain thread pool)
     * @param waiting exchanges waiting for a thread now
     * @param running counted handlers running now
     * @return the new limit
     */
    int adjust(double cpuLoad, int waiting, int running) {
        int target = target(waiting);
        if (cpuLoad < 0) {
            limit = ceiling;
        } else if (cpuLoad < SPARE_BELOW) {
            if (waiting > 0) {
                // Cores idle while exchanges wait: the running handlers wait for something; let more in.
                limit = Math.min(ceiling, limit + Math.max(1, Math.min(waiting, limit / 2)));
            }
        } else if (cpuLoad >= SATURATED_FROM && limit > target) {
            // Saturated: more at once would only share the cores more finely. Step down from what runs now.
            limit = Math.max(target, Math.min(limit, running) - 1);
        }
        if (limit < target) {
            limit = target;
        }
        return limit;
    }

    /**
     * The least to let in with {@code waiting} exchanges waiting: the floor, or with a long line of cheap
     * exchanges a share of the line ({@value #BACKLOG_SHARE}th), as long as handlers sharing the cores that many
     * at a time each still finish within {@value #STRETCH_NANOS} ns: more at once then costs a handler little
     * time and lets the hand-offs of many connections overlap.
     */
    private int target(int waiting) {
        int share = waiting / BACKLOG_SHARE;
        if (share <= floor) {
            return floor;
        }
        double cpu = Math.max(cpuNanos, 1);
        int stretch = (int) Math.min(ceiling, cores * STRETCH_NANOS / cpu);
        return Math.min(ceiling, Math.max(floor, Math.min(share, stretch)));
    }
}
