package dev.weft.httpserver.core;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.lang.management.PlatformManagedObject;
import java.util.function.LongSupplier;

/**
 * How many virtual threads wait for a carrier: the JDK's virtual thread scheduler's estimate of those queued to
 * start or continue ({@code jdk.management.VirtualThreadSchedulerMXBean}, JDK 24 and later); unknown (-1) on
 * older JDKs. A few dozen nanoseconds a call.
 */
final class WaitingForCarriers {

    /** The count, or -1 when this JDK does not tell. */
    static final LongSupplier COUNT = find();

    private WaitingForCarriers() {
    }

    @SuppressWarnings("unchecked")
    private static LongSupplier find() {
        try {
            Class<?> type = Class.forName("jdk.management.VirtualThreadSchedulerMXBean");
            Object bean = ManagementFactory.getPlatformMXBean((Class<? extends PlatformManagedObject>) type);
            MethodHandle queued = MethodHandles.publicLookup()
                    .findVirtual(type, "getQueuedVirtualThreadCount", MethodType.methodType(long.class))
                    .bindTo(bean);
            long first = (long) queued.invoke();
            if (first < 0) {
                return () -> -1;
            }
            return () -> {
                try {
                    return (long) queued.invokeExact();
                } catch (Throwable e) {
                    return -1;
                }
            };
        } catch (Throwable e) {
            // JDK 21 to 23: no such bean.
            return () -> -1;
        }
    }
}
