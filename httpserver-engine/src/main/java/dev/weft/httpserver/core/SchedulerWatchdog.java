package dev.weft.httpserver.core;

import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Notices when virtual threads have stopped being scheduled while connections wait, and says so once at
 * {@code WARNING}. Virtual threads are never preempted: a handler that computes without end, or threads pinned
 * to their carriers while they wait for a lock (a class being loaded through a class loader that locks, say),
 * can hold every carrier, and then no connection is served at all.
 *
 * <p>A probe virtual thread does nothing but note the time whenever it is woken; the connection sweeper (a
 * platform thread) wakes it on each pass. When the probe is late, connections are open and for
 * {@value #STALL_SECONDS} s no request has made progress either, every carrier is taken: the
 * warning names the connection threads that hold or wait for one, with their stacks, and how to take a full
 * thread dump. It is logged again only after the scheduler has recovered.
 */
final class SchedulerWatchdog {

    private static final System.Logger LOG = System.getLogger(SchedulerWatchdog.class.getName());
    static final int STALL_SECONDS = 5;
    private static final long STALL_NANOS = STALL_SECONDS * 1_000_000_000L;
    private static final int MAX_THREADS_SHOWN = 16;
    private static final int MAX_FRAMES_SHOWN = 24;

    private final String serverName;
    /** Counts what the server has done (requests received, bytes moved): unchanged means no progress. */
    private final LongSupplier progress;
    private final Thread probe;
    private volatile long probeRanNanos;
    private volatile boolean stopped;
    // Sweeper thread only.
    private long wokenNanos;
    /** Since when the probe has been late and no progress was seen, or 0 while it is not late. */
    private long markedNanos;
    private long progressMark;
    private boolean warned;

    SchedulerWatchdog(String serverName, LongSupplier progress) {
        this.serverName = serverName;
        this.progress = progress;
        this.probeRanNanos = System.nanoTime();
        this.wokenNanos = probeRanNanos;
        this.probe = Thread.ofVirtual().name(serverName + "-scheduler-probe").unstarted(this::probeLoop);
        probe.start();
    }

    private void probeLoop() {
        while (!stopped) {
            probeRanNanos = System.nanoTime();
            LockSupport.park(this);
        }
    }

    /** One check, from the sweeper; {@code connections} are the open ones. */
    void check(long now, Collection<Connection> connections) {
        if (probeRanNanos - wokenNanos >= 0) {
            // The probe ran since it was last woken: the scheduler works.
            if (warned) {
                warned = false;
                LOG.log(Level.INFO, () -> serverName + ": virtual threads are being scheduled again");
            }
            wokenNanos = now;
            markedNanos = 0;
            LockSupport.unpark(probe);
            return;
        }
        if (warned || connections.isEmpty()) {
            return;
        }
        if (markedNanos == 0) {
            // The probe is late: from now on, look for progress.
            markedNanos = now | 1;
            progressMark = progress.getAsLong();
            return;
        }
        if (now - markedNanos < STALL_NANOS) {
            return;
        }
        long done = progress.getAsLong();
        if (done != progressMark) {
            // Requests still move: the probe only waits behind them.
            markedNanos = now | 1;
            progressMark = done;
            return;
        }
        warned = true;
        LOG.log(Level.WARNING, describe(now, connections));
    }

    /**
     * The latest moment at which virtual threads were known to be scheduled: when the probe last ran (or
     * {@code now}, if that is earlier). Timeouts are judged as of then, so a thread whose bytes came while the
     * scheduler could not run it is never blamed for the wait. Sweeper thread.
     */
    long scheduledAsOf(long now) {
        long ran = probeRanNanos;
        return ran - now < 0 ? ran : now;
    }

    void stop() {
        stopped = true;
        LockSupport.unpark(probe);
    }

    private String describe(long now, Collection<Connection> connections) {
        StringBuilder b = new StringBuilder(serverName).append(": no virtual thread has been scheduled for ")
                .append((now - wokenNanos) / 1_000_000).append(" ms while ").append(connections.size())
                .append(" connections are open and none made progress; every carrier thread (")
                .append(carriers()).append(") is held. Virtual threads are never preempted: a handler computing ")
                .append("without end, or threads pinned to their carriers while they wait for a lock, block all ")
                .append("the others. Set threads.virtual to false (Spring Boot: leave spring.threads.virtual.enabled ")
                .append("off) to run handlers on platform threads.");
        // Threads parked in a socket read or write wait for their clients; the others hold, or wait for, a carrier.
        List<Thread> stuck = new ArrayList<>();
        List<StackTraceElement[]> stacks = new ArrayList<>();
        int waitingForClients = 0;
        for (Connection c : connections) {
            Thread t = c.owner();
            if (t == null || !t.isAlive()) {
                continue;
            }
            StackTraceElement[] frames = t.getStackTrace();
            if (waitsForSocket(frames)) {
                waitingForClients++;
            } else {
                stuck.add(t);
                stacks.add(frames);
            }
        }
        boolean bootLoader = false;
        b.append("\nConnection threads not waiting for their clients: ").append(stuck.size())
                .append(" (").append(waitingForClients).append(" wait for their clients)");
        for (int i = 0; i < Math.min(stuck.size(), MAX_THREADS_SHOWN); i++) {
            Thread t = stuck.get(i);
            b.append("\n  ").append(t).append(" ").append(t.getState());
            StackTraceElement[] frames = stacks.get(i);
            for (int f = 0; f < Math.min(frames.length, MAX_FRAMES_SHOWN); f++) {
                b.append("\n      at ").append(frames[f]);
                bootLoader |= frames[f].getClassName().startsWith("org.springframework.boot.loader.");
            }
        }
        if (bootLoader) {
            b.append("\nThreads are loading classes through Spring Boot's executable-jar class loader, which locks ")
                    .append("while they are pinned: a known deadlock of virtual threads on machines with few cores.");
        }
        b.append("\nFor a dump of every thread, virtual ones included: jcmd ").append(ProcessHandle.current().pid())
                .append(" Thread.dump_to_file -format=json <file>");
        return b.toString();
    }

    /** Whether a thread with this stack is parked in a socket read or write, waiting for its client. */
    private static boolean waitsForSocket(StackTraceElement[] frames) {
        for (StackTraceElement f : frames) {
            String c = f.getClassName();
            if (c.equals("sun.nio.ch.NioSocketImpl") && f.getMethodName().startsWith("park")) {
                return true;
            }
        }
        return false;
    }

    /** The number of carrier threads, as the JDK's scheduler is configured. */
    private static String carriers() {
        String p = System.getProperty("jdk.virtualThreadScheduler.parallelism");
        return (p != null ? p : Integer.toString(Runtime.getRuntime().availableProcessors())) + " of them";
    }
}
