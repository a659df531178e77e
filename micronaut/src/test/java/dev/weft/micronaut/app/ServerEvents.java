package dev.weft.micronaut.app;

import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.runtime.server.event.ServerShutdownEvent;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.inject.Singleton;

import java.util.concurrent.atomic.AtomicInteger;

/** Counts the embedded server's startup and shutdown events. */
@Singleton
public class ServerEvents {

    public final AtomicInteger startups = new AtomicInteger();
    public final AtomicInteger shutdowns = new AtomicInteger();

    @EventListener
    void started(ServerStartupEvent event) {
        startups.incrementAndGet();
    }

    @EventListener
    void stopped(ServerShutdownEvent event) {
        shutdowns.incrementAndGet();
    }
}
