package dev.weft.httpserver.stats;

import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * Live counters of one listener of a server, beside the server's own {@link ServerStats} which counts the same
 * events for all its listeners; made by {@link ServerStats#listener}.
 */
public final class ListenerStats {

    private final String scheme;
    private final InetSocketAddress address;
    private final LongAdder connectionsAccepted = new LongAdder();
    private final LongAdder connectionsActive = new LongAdder();
    private final LongAdder requests = new LongAdder();

    ListenerStats(String scheme, InetSocketAddress address) {
        this.scheme = Objects.requireNonNull(scheme, "scheme");
        this.address = Objects.requireNonNull(address, "address");
    }

    /** A connection was accepted on this listener and is now open. */
    public void connectionOpened() {
        connectionsAccepted.increment();
        connectionsActive.increment();
    }

    /** A connection of this listener was closed. */
    public void connectionClosed() {
        connectionsActive.decrement();
    }

    /** A request head was parsed (or rejected) on a connection of this listener. */
    public void requestReceived() {
        requests.increment();
    }

    /** A copy of the counters. */
    public StatsSnapshot.Listener snapshot() {
        return new StatsSnapshot.Listener(scheme, address, connectionsAccepted.sum(), connectionsActive.sum(),
                requests.sum());
    }
}
