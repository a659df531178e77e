package dev.weft.httpserver.proxyprotocol;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * Reads the PROXY protocol header a connection must start with, v1 or v2, straight from the socket before
 * anything else (TLS included) reads it: exactly the header's bytes, nothing after them, within one deadline
 * for the whole header. The function from an accepted socket to its header that a listener with the PROXY
 * protocol on calls; it holds only its timeout and is safe for every connection thread at once.
 */
public final class ProxyHeaderReader {

    private static final int PROBE = 6; // "PROXY " or the first 6 bytes of the v2 signature

    private final long timeoutNanos;

    /** @param timeout the longest the whole header may take to arrive */
    public ProxyHeaderReader(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * The header at the start of {@code socket}, whose read timeout is restored afterwards.
     *
     * @throws MalformedProxyHeaderException if the bytes are not a valid header within the limits
     * @throws SocketTimeoutException        if the header did not arrive in time
     * @throws IOException                   if the connection failed or ended first
     */
    public ProxyHeader read(Socket socket) throws IOException {
        int previousTimeout = socket.getSoTimeout();
        long deadline = System.nanoTime() + timeoutNanos;
        InputStream in = socket.getInputStream();
        try {
            byte[] head = new byte[ProxyV1.MAX_LENGTH];
            readFully(socket, in, head, 0, PROBE, deadline);
            if (head[0] == 'P') {
                return readV1(socket, in, head, deadline);
            }
            if (!ProxyV2.startsLikeSignature(head, PROBE)) {
                throw new MalformedProxyHeaderException("no PROXY header");
            }
            byte[] fixed = new byte[ProxyV2.FIXED_LENGTH];
            System.arraycopy(head, 0, fixed, 0, PROBE);
            readFully(socket, in, fixed, PROBE, ProxyV2.FIXED_LENGTH - PROBE, deadline);
            byte[] payload = new byte[ProxyV2.payloadLength(fixed)];
            readFully(socket, in, payload, 0, payload.length, deadline);
            return ProxyV2.parse(fixed, payload);
        } finally {
            socket.setSoTimeout(previousTimeout);
        }
    }

    /** Reads byte by byte up to the LF, so that nothing after the header is consumed. */
    private static ProxyHeader readV1(Socket socket, InputStream in, byte[] line, long deadline) throws IOException {
        int n = PROBE;
        while (line[n - 1] != '\n') {
            if (n == line.length) {
                throw new MalformedProxyHeaderException("v1 header longer than " + ProxyV1.MAX_LENGTH + " bytes");
            }
            readFully(socket, in, line, n, 1, deadline);
            n++;
        }
        return ProxyV1.parse(line, n);
    }

    private static void readFully(Socket socket, InputStream in, byte[] b, int off, int len, long deadline)
            throws IOException {
        while (len > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new SocketTimeoutException("PROXY header not received in time");
            }
            socket.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, left / 1_000_000)));
            int r = in.read(b, off, len);
            if (r < 0) {
                throw new EOFException("connection ended in the PROXY header");
            }
            off += r;
            len -= r;
        }
    }
}
