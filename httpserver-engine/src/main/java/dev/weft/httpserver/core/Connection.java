package dev.weft.httpserver.core;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ListenerStats;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.accesslog.AccessLog;
import dev.weft.httpserver.stats.ServerStats;

import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.lang.System.Logger.Level;
import dev.weft.httpserver.proxyprotocol.ProxyHeader;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One accepted connection: its socket, buffered streams and lifecycle state, shared by the protocol code
 * that serves it and by the {@link ConnectionRegistry} that may close it.
 *
 * <p>State moves {@code HANDSHAKE → IDLE ⇄ ACTIVE → CLOSED}. Only the connection's own thread moves it between
 * IDLE and ACTIVE; a graceful stop closes IDLE connections at once and lets ACTIVE ones finish their exchange.
 *
 * <p>The connection holds one of the registry's slots (of {@code maxConnections}) from its accept until it
 * closes, or until it is evicted to make room for a new one: the slot is given back exactly once.
 */
public final class Connection {

    private static final System.Logger LOG = System.getLogger(Connection.class.getName());

    private static final int HANDSHAKE = 0;
    private static final int IDLE = 1;
    private static final int ACTIVE = 2;
    private static final int CLOSED = 3;

    /** Numbers the connections of every server in this JVM, for {@link #id()}. */
    private static final java.util.concurrent.atomic.AtomicLong IDS = new java.util.concurrent.atomic.AtomicLong();
    /**
     * The output buffers of all connections: an HTTP/1.1 connection gives its own back while it waits for the next
     * request. Enough are kept for the connections busy at once on a loaded server; beyond that they are garbage.
     */
    private static final BufferPool OUTPUT_BUFFERS = new BufferPool(16 * 1024, 512);
    /** The input buffers of requests that do not fit in a connection's own small one ({@link #IDLE_INPUT}). */
    private static final BufferPool INPUT_BUFFERS = new BufferPool(8 * 1024, 512);
    /** The input buffer a connection keeps: most request heads arrive whole in one read of it. */
    private static final int IDLE_INPUT = 2 * 1024;

    // Set once, at accept.
    private final long id = IDS.incrementAndGet();
    private final Socket socket;
    private final ServerConfig config;
    private final ServerStats stats;
    private final ListenerStats listenerStats;
    private final ConnectionRegistry registry;
    /** The socket's peer and own address, or those of a PROXY protocol header, set before the connection opens. */
    private volatile InetSocketAddress remote;
    private volatile InetSocketAddress local;
    /** The PROXY protocol header the connection started with, or null. */
    private volatile ProxyHeader proxyHeader;
    // Changed by the connection thread and by a graceful stop.
    private final AtomicInteger state = new AtomicInteger(HANDSHAKE);
    // Set once by the connection thread in open(); read by the sweeper and by stop.
    private volatile ConnectionInput input;
    private volatile ConnectionOutput output;
    private volatile Socket transport;
    private volatile Thread owner;
    /** The connection thread's share of its carrier; set in open(), used by that thread only. */
    private CarrierTurn turn;
    /** When the TLS handshake started, or 0 once the connection is open; read by the sweeper. */
    private volatile long handshakeStartedNanos;
    /** What a graceful stop asks of a busy connection whose protocol can announce it (HTTP/2 GOAWAY). */
    private volatile Runnable drainHook;
    /** Set when a stop closed the connection while an exchange was in progress on it. */
    private volatile boolean closedByStop;
    /** Set when the registry slot has been given back (by eviction or by the close). */
    private final AtomicBoolean slotReleased = new AtomicBoolean();

    Connection(Socket socket, ServerConfig config, ServerStats stats, ListenerStats listenerStats,
               ConnectionRegistry registry) {
        this.socket = socket;
        this.config = config;
        this.stats = stats;
        this.listenerStats = listenerStats;
        this.registry = registry;
        this.remote = (InetSocketAddress) socket.getRemoteSocketAddress();
        this.local = (InetSocketAddress) socket.getLocalSocketAddress();
        this.handshakeStartedNanos = System.nanoTime();
    }

    /** Wraps the (possibly TLS) socket's streams in buffers; called once, after any handshake. */
    void open(Socket transport) throws IOException {
        owner = Thread.currentThread();
        int maxLine = Math.max(Math.max(config.maxRequestLineLength(), config.maxHeaderSize()),
                config.maxChunkLineLength()) + 64;
        long graceNanos = config.dataRateGracePeriod().toNanos();
        ConnectionInput in = new ConnectionInput(transport.getInputStream(), INPUT_BUFFERS, IDLE_INPUT, maxLine);
        if (config.minRequestDataRate() > 0) {
            in.bodyMeter(new DataRateMeter(config.minRequestDataRate(), graceNanos));
        }
        turn = new CarrierTurn(config.threads().timeSlice().toNanos());
        in.turn(turn);
        input = in;
        // Cleartext: file regions may go straight to the socket's channel (accepted through a ServerSocketChannel).
        output = new ConnectionOutput(transport.getOutputStream(), OUTPUT_BUFFERS,
                new DataRateMeter(config.minResponseDataRate(), graceNanos),
                transport == socket ? socket.getChannel() : null);
        output.turn(turn);
        handshakeStartedNanos = 0;
        this.transport = transport;
    }

    /**
     * Takes the client's and the server's address from the PROXY protocol header the connection started with,
     * where it carries them; called once, before {@link #open}.
     */
    void proxied(ProxyHeader header) {
        proxyHeader = header;
        if (header.source() != null) {
            remote = header.source();
            local = header.destination();
        }
    }

    /** The PROXY protocol header the connection started with, or {@code null}. */
    public ProxyHeader proxyHeader() {
        return proxyHeader;
    }

    /** A number unique among the connections accepted in this JVM. */
    public long id() {
        return id;
    }

    public ServerConfig config() {
        return config;
    }

    public ServerStats stats() {
        return stats;
    }

    /** The counters of the listener that accepted this connection. */
    ListenerStats listenerStats() {
        return listenerStats;
    }

    /** Counts a request head received (or rejected) on this connection, for the server and for its listener. */
    public void requestReceived() {
        stats.requestReceived();
        listenerStats.requestReceived();
    }

    /** The server's access log, or {@code null} when it is off. */
    public AccessLog accessLog() {
        return registry.accessLog();
    }

    /** The thread serving this connection, once it runs; for diagnostics. */
    Thread owner() {
        return owner;
    }

    /** The connection thread's turn on its carrier ({@link CarrierTurn}); for that thread only. */
    public CarrierTurn turn() {
        return turn;
    }

    public ConnectionInput input() {
        return input;
    }

    public ConnectionOutput output() {
        return output;
    }

    /** The TLS socket, or {@code null} on a cleartext connection. */
    public SSLSocket sslSocket() {
        return transport instanceof SSLSocket s ? s : null;
    }

    public InetSocketAddress remoteAddress() {
        return remote;
    }

    public InetSocketAddress localAddress() {
        return local;
    }

    /** Whether the server is stopping: finish the current exchange, then close. */
    public boolean draining() {
        return registry.draining();
    }

    /**
     * Marks the connection idle between requests.
     *
     * @return false if the server is stopping and the connection should close instead
     */
    public boolean markIdle() {
        if (registry.draining()) {
            return false;
        }
        int s = state.get();
        return s != CLOSED && state.compareAndSet(s, IDLE) && !registry.draining();
    }

    /**
     * Marks the connection busy with a request.
     *
     * @return false if it was closed meanwhile by a graceful stop
     */
    public boolean markActive() {
        return state.compareAndSet(IDLE, ACTIVE);
    }

    /**
     * Registers what a graceful stop does while this connection is busy, e.g. HTTP/2 sends GOAWAY and closes
     * once its streams are done. The hook may be called more than once and must be idempotent.
     */
    public void onDrain(Runnable hook) {
        drainHook = hook;
    }

    /**
     * Closes the connection if it is idle or still handshaking, or runs its drain hook if it is busy; used
     * by a graceful stop.
     */
    void closeIfIdle() {
        int s = state.get();
        if ((s == IDLE || s == HANDSHAKE) && state.compareAndSet(s, CLOSED)) {
            closeSocket();
        } else if (s == ACTIVE) {
            Runnable hook = drainHook;
            if (hook != null) {
                hook.run();
            }
        }
    }

    /** Closes the connection now, whatever it is doing, and wakes its thread if it waits for a handler. */
    public void close() {
        if (state.getAndSet(CLOSED) != CLOSED) {
            closeSocket();
            Thread t = owner;
            if (t != null && t != Thread.currentThread()) {
                java.util.concurrent.locks.LockSupport.unpark(t);
            }
        }
    }

    /** Whether a stop of the server closed this connection while it was busy ({@link #forceClose()}). */
    public boolean closedByStop() {
        return closedByStop;
    }

    /**
     * Closes the connection and interrupts its thread, so that a handler running inline and blocked in
     * user code stops too; used when a graceful stop runs out of time. A busy connection is counted as a stop
     * close.
     */
    void forceClose() {
        if (state.get() == ACTIVE) {
            closedByStop = true;
            stats.stopClose();
        }
        close();
        Thread t = owner;
        if (t != null && t != Thread.currentThread()) {
            t.interrupt();
        }
    }

    /**
     * Half-closes: sends what is buffered, then ends the output direction while reads go on. On TLS the
     * socket sends {@code close_notify} before the FIN (RFC 8446 §6.1 keeps the read side open; a TLS 1.2
     * peer answers with its own and closes, RFC 5246 §7.2.1). Idempotent.
     */
    public void shutdownOutput() throws IOException {
        Socket t = transport;
        if (t == null || t.isOutputShutdown()) {
            return;
        }
        output.flush();
        t.shutdownOutput();
    }

    public boolean isClosed() {
        return state.get() == CLOSED;
    }

    /** Adds the bytes moved since the last call to the server statistics. */
    public void flushByteCounts() {
        flushBytesRead();
        flushBytesWritten();
    }

    /** Adds the bytes read since the last call to the statistics; call from the thread that reads. */
    public void flushBytesRead() {
        ConnectionInput in = input;
        if (in != null) {
            long n = in.takeBytesRead();
            if (n > 0) {
                stats.bytesReceived(n);
            }
        }
    }

    /** Adds the bytes written since the last call to the statistics; call from the thread that writes. */
    public void flushBytesWritten() {
        ConnectionOutput out = output;
        if (out != null) {
            long n = out.takeBytesWritten();
            if (n > 0) {
                stats.bytesSent(n);
            }
            long direct = out.takeBytesTransferred();
            if (direct > 0) {
                stats.bytesSentZeroCopy(direct);
            }
        }
    }

    /**
     * Enforces timeouts and minimum data rates; called by the sweeper. An overdue read, or a request body
     * read below its minimum rate, is woken by shutting the input down, so the connection thread can still
     * answer (e.g. {@code 408}); a stalled write, a response below its minimum rate or a stalled handshake
     * cuts the connection.
     *
     * @return whether it woke a read or cut the connection
     */
    boolean closeIfStalled(long now) {
        ConnectionInput in = input;
        boolean acted = false;
        if (in != null && (in.expireIfOverdue(now) || in.expireIfTooSlow(now))) {
            wakeReader();
            acted = true;
        }
        ConnectionOutput out = output;
        if (out != null) {
            long started = out.writeStartedNanos();
            if (started != 0 && now - started > config.writeTimeout().toNanos()) {
                stats.protocolError(ProtocolError.WRITE_TIMEOUT);
                stats.timeoutClose();
                LOG.log(Level.DEBUG, () -> "client " + remote + " took no response bytes within the write timeout");
                cut();
                return true;
            }
            if (out.tooSlow(now)) {
                stats.protocolError(ProtocolError.RESPONSE_DATA_RATE);
                stats.timeoutClose();
                LOG.log(Level.DEBUG, () -> "client " + remote + " took the response slower than "
                        + out.minRate() + " bytes/s");
                cut();
                return true;
            }
        }
        long hs = handshakeStartedNanos;
        if (hs != 0 && now - hs > config.tlsHandshakeTimeout().toNanos()) {
            // Reads of the handshake time out by themselves; this catches a handshake stuck writing.
            cut();
            return true;
        }
        return acted;
    }

    /** Wakes a blocked read by shutting the socket's input down; the read fails as its input decided. */
    private void wakeReader() {
        try {
            socket.shutdownInput();
        } catch (IOException e) {
            cut();
        }
    }

    /**
     * Since when this connection has waited for a new request ({@link System#nanoTime()}): an HTTP/1.1
     * keep-alive connection between requests, an HTTP/2 one without open streams, a new one that has sent
     * nothing yet. 0 if it is doing anything else, or is closed or evicted.
     */
    long idleSince() {
        ConnectionInput in = input;
        return in == null || slotReleased.get() ? 0 : in.idleSince();
    }

    /**
     * Since when this connection has been stalled on its client ({@link System#nanoTime()}): blocked reading
     * a request (header section or body) or writing, or still in its TLS handshake; or, for a body or response
     * moving now below its minimum rate even without the grace period, since as long ago as it has kept the
     * server waiting. 0 if none of these, or if it is closed or evicted.
     */
    long stalledSince(long now) {
        if (slotReleased.get()) {
            return 0;
        }
        long since = handshakeStartedNanos;
        ConnectionInput in = input;
        if (in != null) {
            since = earliest(since, in.stalledSince());
            since = earliest(since, in.behindSince(now));
        }
        ConnectionOutput out = output;
        if (out != null) {
            since = earliest(since, out.writeStartedNanos());
            since = earliest(since, out.behindSince(now));
        }
        return since;
    }

    private static long earliest(long a, long b) {
        return a == 0 ? b : b == 0 ? a : (a - b < 0 ? a : b);
    }

    /**
     * Gives back the registry slot this connection holds.
     *
     * @return true the first time only
     */
    boolean releaseSlot() {
        return !slotReleased.get() && slotReleased.compareAndSet(false, true);
    }

    /**
     * Closes this connection to make room for another; its slot has been released. One waiting for input
     * (idle, or stalled reading a request) has its read fail ({@link ConnectionInput.EvictedException}), so
     * that its thread ends it as its protocol prescribes: an idle HTTP/1.1 connection closes silently, HTTP/2
     * sends GOAWAY, a request in progress gets {@code 408}. Any other (blocked writing, handshaking) is cut at
     * once. Never blocks.
     */
    void evict() {
        ConnectionInput in = input;
        ConnectionOutput out = output;
        if (in != null && out != null && out.writeStartedNanos() == 0
                && (in.idleSince() != 0 || in.stalledSince() != 0)) {
            if (in.evict()) {
                wakeReader();
            }
            // else its read was cut already (a timeout, a minimum rate): its thread is ending it
        } else {
            cut();
        }
    }

    /**
     * Closes at once, without a TLS {@code close_notify}: closes the TCP socket, which fails any read or write
     * blocked on it and never blocks (closing the TLS socket would wait for a blocked writer's lock, and for
     * room to send the alert). For a connection that is being cut off.
     */
    void cut() {
        if (state.getAndSet(CLOSED) != CLOSED) {
            closeTcp();
            Thread t = owner;
            if (t != null && t != Thread.currentThread()) {
                java.util.concurrent.locks.LockSupport.unpark(t);
            }
        }
    }

    private void closeSocket() {
        try {
            Socket t = transport;
            if (t != null && t != socket) {
                t.close();
            }
        } catch (IOException | RuntimeException ignored) {
            // closing the raw socket below is what matters
        }
        closeTcp();
    }

    /**
     * Closes the TCP socket. One accepted through a channel (cleartext) first ends its output, as a plain
     * {@code java.net.Socket} does when it closes, so that the client reads the end of what was sent (a FIN)
     * before the reset that unread input causes; closing the channel alone would only reset. Never blocks.
     */
    private void closeTcp() {
        if (socket.getChannel() != null && !socket.isClosed() && !socket.isOutputShutdown()) {
            try {
                socket.shutdownOutput();
            } catch (IOException ignored) {
                // not connected any more, or closed meanwhile: closing is all that is left
            }
        }
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    /**
     * Closes after an error response: flushes, half-closes and reads what the client still sends for a
     * moment, so the client reads our response before the connection is reset.
     */
    public void closeGracefully() {
        try {
            ConnectionOutput out = output;
            if (out != null) {
                out.flush();
            }
            Socket t = transport;
            if (t != null && !(t instanceof SSLSocket)) {
                t.shutdownOutput();
                t.setSoTimeout(500);
                byte[] sink = new byte[4096];
                long deadline = System.nanoTime() + 1_000_000_000L;
                int total = 0;
                var in = t.getInputStream();
                while (total < 256 * 1024 && System.nanoTime() < deadline) {
                    int n = in.read(sink);
                    if (n < 0) {
                        break;
                    }
                    total += n;
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // the connection is going away anyway
        } finally {
            close();
        }
    }
}
