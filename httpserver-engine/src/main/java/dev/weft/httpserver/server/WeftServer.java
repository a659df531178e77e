package dev.weft.httpserver.server;

import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ServerStats;
import dev.weft.httpserver.stats.StatsSnapshot;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/** What both Weft server types offer beyond the JDK API. */
public interface WeftServer {

    /** This server's configuration. */
    ServerConfig config();

    /** A copy of this server's counters. */
    StatsSnapshot stats();

    /**
     * The live counters behind {@link #stats()}, which the engine's own handlers (WebSocket, proxy) record
     * into; applications read {@link #stats()} instead.
     */
    ServerStats liveStats();

    /**
     * Stops accepting connections and closes idle ones at once, lets in-flight exchanges finish (their
     * responses say {@code Connection: close}), and completes with {@code true} when all are done, or with
     * {@code false} if a {@code stop(delay)} called meanwhile had to close connections still busy. Does not
     * block; {@code stop(0)} cuts the wait short.
     */
    CompletableFuture<Boolean> shutdownGracefully();

    /**
     * Registers {@code action} to run once when the server begins to stop ({@code stop} or
     * {@link #shutdownGracefully()}), at once if it is stopping already; for the engine's long-lived protocol
     * handlers (WebSocket sessions close with {@code 1001}) that would otherwise hold the drain up. The action
     * must not block. Returns what removes the registration.
     */
    Runnable whenStopping(Runnable action);

    /** See {@link dev.weft.httpserver.Weft#addListener}: binds all of {@code listeners} or none. */
    void addListeners(List<Listener> listeners) throws IOException;

    /** See {@link dev.weft.httpserver.Weft#applicationExecutor}. */
    Executor applicationExecutor();
}
