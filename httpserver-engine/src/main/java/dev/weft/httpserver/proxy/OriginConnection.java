package dev.weft.httpserver.proxy;

import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.core.ConnectionOutput;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;

/**
 * One TCP connection from the proxy to a target, opened to an address the {@link TargetPolicy} allowed,
 * with the engine's buffered input and output on it. Reads are untimed unless a deadline is set (the wait
 * for a response head); stalls otherwise end through {@link IdleWatch} closing the socket. Used by the
 * exchange's thread, and in a tunnel by one pump thread per direction.
 */
final class OriginConnection implements AutoCloseable {

    private static final int BUFFER = 8192;

    private final Socket socket;
    private final DeadlineInput raw;
    private final ConnectionInput in;
    private final ConnectionOutput out;

    private OriginConnection(Socket socket, int maxLine) throws IOException {
        this.socket = socket;
        this.raw = new DeadlineInput(socket);
        this.in = new ConnectionInput(raw, BUFFER, maxLine + BUFFER);
        // Every read may wait as long as the socket lets it: the deadline and the idle watch bound it.
        this.in.readTimeout(Integer.MAX_VALUE);
        this.out = new ConnectionOutput(socket.getOutputStream(), BUFFER);
    }

    /**
     * Connects to the first of {@code addresses} that accepts within what is left of {@code timeout}.
     *
     * @param maxLine longest line (status line or field) the input must be able to hold
     * @throws SocketTimeoutException if the time ran out
     * @throws IOException            the last failure when every address refused
     */
    static OriginConnection open(List<InetSocketAddress> addresses, Duration timeout, int maxLine) throws IOException {
        long deadline = System.nanoTime() + timeout.toNanos();
        IOException last = null;
        for (InetSocketAddress a : addresses) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left < 1) {
                throw new SocketTimeoutException("connect to " + a + " timed out");
            }
            Socket s = new Socket();
            try {
                s.setTcpNoDelay(true);
                s.connect(a, (int) Math.min(Integer.MAX_VALUE, left));
                return new OriginConnection(s, maxLine);
            } catch (SocketTimeoutException e) {
                s.close();
                throw e;
            } catch (IOException e) {
                s.close();
                last = e;
            }
        }
        throw last != null ? last : new IOException("no address to connect to");
    }

    ConnectionInput input() {
        return in;
    }

    ConnectionOutput output() {
        return out;
    }

    InetSocketAddress remoteAddress() {
        return (InetSocketAddress) socket.getRemoteSocketAddress();
    }

    /** Reads from now on fail with {@link SocketTimeoutException} after this {@link System#nanoTime()}; 0: never. */
    void deadline(long nanoTime) {
        raw.deadlineNanos = nanoTime;
    }

    /** Sends FIN: the target sees the end of the stream and can still answer. */
    void shutdownOutput() throws IOException {
        if (!socket.isClosed() && !socket.isOutputShutdown()) {
            socket.shutdownOutput();
        }
    }

    /** Closes with a TCP RST (SO_LINGER 0), so the target learns the tunnel broke rather than ended. */
    void reset() {
        try {
            if (!socket.isClosed()) {
                socket.setSoLinger(true, 0);
            }
        } catch (IOException ignored) {
            // closed meanwhile: the close below is all that is left
        }
        close();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // nothing left to do with it
        }
    }

    /** The socket's input with an optional absolute deadline, applied as the socket timeout of each read. */
    private static final class DeadlineInput extends InputStream {
        private final Socket socket;
        private final InputStream in;
        private volatile long deadlineNanos;
        private int appliedTimeout;

        DeadlineInput(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
        }

        private void arm() throws IOException {
            long d = deadlineNanos;
            int timeout = 0;
            if (d != 0) {
                long left = (d - System.nanoTime()) / 1_000_000;
                if (left < 1) {
                    throw new SocketTimeoutException("response timed out");
                }
                timeout = (int) Math.min(Integer.MAX_VALUE, left);
            }
            if (timeout != appliedTimeout) {
                socket.setSoTimeout(timeout);
                appliedTimeout = timeout;
            }
        }

        @Override
        public int read() throws IOException {
            arm();
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            arm();
            return in.read(b, off, len);
        }
    }
}
