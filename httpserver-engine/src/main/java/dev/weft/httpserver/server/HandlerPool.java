package dev.weft.httpserver.server;

import dev.weft.httpserver.config.ThreadsConfig;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The platform threads that run handlers when {@link ThreadsConfig#virtual()} is off: at most
 * {@link ThreadsConfig#max()} threads, {@link ThreadsConfig#minSpare()} started at once and kept, others ending
 * after a minute without work. They are scheduled by the operating system, so a handler that computes for long,
 * or is pinned, cannot hold the others back.
 *
 * <p>Exchanges wait in arrival order and are let in by an {@link AdmissionLimit}: a few more at once than there
 * are cores while the handlers compute, as many as needed (up to the maximum) while they wait for something and
 * cores idle. A monitor thread samples the CPU load every {@value #TICK_MILLIS} ms while exchanges wait or more
 * run than the limit's floor, adjusts the limit, and stops counting handlers that have run for longer than
 * {@link AdmissionLimit#LONG_RUNNING_NANOS}, so that the next ones start beside them.
 *
 * <p>The threads are daemons, named {@code weft-handler-<port>-<n>}.
 */
final class HandlerPool implements Executor {

    private static final long KEEP_ALIVE_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final ThreadMXBean CPU_TIME = ManagementFactory.getThreadMXBean();
    static final long TICK_MILLIS = 50;

    private final String name;
    private final int maxThreads;
    private final int minSpare;
    private final AdmissionLimit admission;
    private final CpuLoad cpu = CpuLoad.create();
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled for workers: an exchange may be taken, or the pool is shutting down. */
    private final Condition work = lock.newCondition();
    /** Signalled for the monitor: there is something to watch. */
    private final Condition watch = lock.newCondition();
    // Guarded by lock.
    private final ArrayDeque<Runnable> waiting = new ArrayDeque<>();
    private final List<Worker> workers = new ArrayList<>();
    private int idle;
    /** Handlers running that count against the limit (not yet long-running). */
    private int counted;
    private int started;
    private boolean shutdown;
    /** Whether the monitor waits for {@link #watch}: nothing to watch when it last looked. */
    private boolean monitorAsleep;
    private final Thread monitor;

    HandlerPool(ThreadsConfig config, String name) {
        this.name = name;
        this.maxThreads = config.max();
        this.minSpare = config.minSpare();
        this.admission = new AdmissionLimit(Runtime.getRuntime().availableProcessors(), config.max());
        lock.lock();
        try {
            for (int i = 0; i < minSpare; i++) {
                startWorker();
            }
        } finally {
            lock.unlock();
        }
        monitor = Thread.ofPlatform().name(name + "-monitor").daemon(true).start(this::monitor);
    }

    @Override
    public void execute(Runnable exchange) {
        lock.lock();
        try {
            if (shutdown) {
                throw new Stopping();
            }
            waiting.addLast(exchange);
            if (counted < admission.limit()) {
                if (idle > 0) {
                    work.signal();
                } else if (workers.size() < maxThreads) {
                    startWorker();
                }
            }
            if (monitorAsleep && counted >= admission.floor()) {
                // Once this one runs, more than the floor run (or it has to wait): something to watch. Below the
                // floor the monitor sleeps on; waking it for every exchange would cost each one a thread switch
                // and a CPU-load sample.
                watch.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Threads started now, busy or idle. */
    int size() {
        lock.lock();
        try {
            return workers.size();
        } finally {
            lock.unlock();
        }
    }

    /** Exchanges handed to the pool and not finished yet: waiting or running. */
    int inFlight() {
        lock.lock();
        try {
            int running = 0;
            for (Worker w : workers) {
                if (w.startedNanos != 0) {
                    running++;
                }
            }
            return waiting.size() + running;
        } finally {
            lock.unlock();
        }
    }

    /** How many handlers may run at once now (see {@link AdmissionLimit}). */
    int limit() {
        lock.lock();
        try {
            return admission.limit();
        } finally {
            lock.unlock();
        }
    }

    /** Refuses new exchanges, drops those waiting and interrupts every thread, so that handlers stop too. */
    void shutdownNow() {
        List<Worker> all;
        lock.lock();
        try {
            shutdown = true;
            waiting.clear();
            all = List.copyOf(workers);
            work.signalAll();
            watch.signalAll();
        } finally {
            lock.unlock();
        }
        for (Worker w : all) {
            w.thread.interrupt();
        }
        monitor.interrupt();
    }

    // Under lock.
    private void startWorker() {
        Worker w = new Worker();
        workers.add(w);
        w.thread = Thread.ofPlatform().name(name + "-" + ++started).daemon(true).unstarted(() -> run(w));
        w.thread.start();
    }

    private void run(Worker w) {
        lock.lock();
        try {
            while (true) {
                long idleSince = System.nanoTime();
                while (!shutdown && (waiting.isEmpty() || counted >= admission.limit())) {
                    idle++;
                    try {
                        work.awaitNanos(KEEP_ALIVE_NANOS);
                    } catch (InterruptedException e) {
                        // only a shutdown interrupts an idle worker; the loop sees it
                    } finally {
                        idle--;
                    }
                    if (System.nanoTime() - idleSince >= KEEP_ALIVE_NANOS && workers.size() > minSpare
                            && waiting.isEmpty()) {
                        workers.remove(w);
                        return;
                    }
                }
                if (shutdown) {
                    workers.remove(w);
                    return;
                }
                Runnable exchange = waiting.pollFirst();
                counted++;
                w.counted = true;
                w.startedNanos = System.nanoTime();
                if (!waiting.isEmpty() && counted < admission.limit() && idle > 0) {
                    work.signal(); // more may run: pass it on
                }
                lock.unlock();
                long cpuStart = CPU_TIME.getCurrentThreadCpuTime();
                try {
                    exchange.run();
                } catch (Throwable ignored) {
                    // The router has logged it (only the JVM's own errors come this far); the thread goes on.
                } finally {
                    long cpuTaken = CPU_TIME.getCurrentThreadCpuTime() - cpuStart;
                    Thread.interrupted(); // a stop's interrupt meant for this exchange must not reach the next
                    lock.lock();
                    if (w.counted) {
                        counted--;
                    }
                    w.counted = false;
                    w.startedNanos = 0;
                    admission.finished(cpuTaken);
                }
                if (!waiting.isEmpty() && counted < admission.limit() && idle > 0) {
                    work.signal();
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** Adjusts the limit, and stops counting long-running handlers, while there is anything to watch. */
    private void monitor() {
        lock.lock();
        try {
            while (!shutdown) {
                if (waiting.isEmpty() && counted <= admission.floor()) {
                    monitorAsleep = true;
                    try {
                        watch.await();
                    } catch (InterruptedException e) {
                        return;
                    } finally {
                        monitorAsleep = false;
                    }
                    cpu.sample(); // restart the measurement
                    continue;
                }
                lock.unlock();
                try {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS));
                } finally {
                    lock.lock();
                }
                if (Thread.currentThread().isInterrupted()) {
                    return;
                }
                long now = System.nanoTime();
                for (Worker w : workers) {
                    if (w.counted && now - w.startedNanos > AdmissionLimit.LONG_RUNNING_NANOS) {
                        w.counted = false;
                        counted--;
                    }
                }
                admission.adjust(cpu.sample(), waiting.size(), counted);
                int room = Math.min(waiting.size(), admission.limit() - counted);
                for (int i = 0; i < room; i++) {
                    if (idle > i) {
                        work.signal();
                    } else if (workers.size() < maxThreads) {
                        startWorker();
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /** One platform thread of the pool; its fields are guarded by the pool's lock. */
    private static final class Worker {
        Thread thread;
        /** When the exchange it runs started, or 0 when it runs none. */
        long startedNanos;
        /** Whether its exchange counts against the limit. */
        boolean counted;
    }

    /** Thrown for an exchange handed over after the server began to close its threads: no fault of anyone's. */
    static final class Stopping extends RejectedExecutionException {
        private static final long serialVersionUID = 1L;

        Stopping() {
            super("the server is stopping");
        }
    }

    /** The machine's (or container's) recent CPU load, from the JDK's operating-system bean. */
    private static final class CpuLoad {

        private final com.sun.management.OperatingSystemMXBean os;

        private CpuLoad(com.sun.management.OperatingSystemMXBean os) {
            this.os = os;
        }

        static CpuLoad create() {
            return new CpuLoad(ManagementFactory.getOperatingSystemMXBean()
                    instanceof com.sun.management.OperatingSystemMXBean b ? b : null);
        }

        /** The share of the CPU in use since the last call, from 0 to 1; negative when unknown. */
        double sample() {
            return os == null ? -1 : os.getCpuLoad();
        }
    }
}
