package dev.weft.bench.engine;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Measures the CPU time of one {@link Report#json(int)} call on one thread, after a warm-up: how
 * {@link Report#DEFAULT_SIZE} was chosen. No server involved.
 *
 * <p>Usage: {@code java -cp target/classes:target/lib/* dev.weft.bench.engine.ReportCost [size] [seconds]}
 * (defaults: {@link Report#DEFAULT_SIZE}, 5 s of warm-up then 5 s measured, in rounds of 1 s).
 */
public final class ReportCost {

    private ReportCost() {
    }

    public static void main(String[] args) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : Report.DEFAULT_SIZE;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long sink = 0;
        int bytes = Report.json(size).length;
        for (int phase = 0; phase < 2; phase++) {
            for (int s = 0; s < seconds; s++) {
                long cpu0 = threads.getCurrentThreadCpuTime();
                long wall0 = System.nanoTime();
                int ops = 0;
                while (System.nanoTime() - wall0 < 1_000_000_000L) {
                    sink += Report.json(size).length;
                    ops++;
                }
                long cpu = threads.getCurrentThreadCpuTime() - cpu0;
                if (phase == 1) {
                    System.out.printf("size %d: %d bytes, %.3f ms CPU per call (%d calls in 1 s)%n", size, bytes,
                            cpu / 1e6 / ops, ops);
                }
            }
        }
        if (sink == 42) {
            System.out.println(); // keeps the calls from being optimised away
        }
    }
}
