package dev.weft.httpserver.core;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;

/**
 * The buffered byte sink of one connection. Response heads and small bodies collect here and go out in
 * one write when {@link #flush()} is called (once per batch of pipelined responses) or the buffer fills.
 *
 * <p>Each socket write is stamped and measured by a {@link DataRateMeter}, so the {@link ConnectionRegistry}
 * sweeper can close a connection whose client stopped reading ({@code writeTimeout}) or takes a response
 * slower than its minimum rate. A large write goes to the socket in pieces of at most {@value #MAX_PIECE}
 * bytes, so that progress shows between them and a fast client is never taken for a slow one. Used by one
 * thread at a time; HTTP/2 serialises writers with its own lock.
 *
 * <p>A cleartext connection also has the socket's channel: regions of files ({@link #write(FileRegion)}) go
 * from the file to it with {@link FileChannel#transferTo} (zero-copy), in the same measured pieces; once the
 * socket is non-blocking beneath (a virtual thread has used it), a transfer never waits in the kernel, and a
 * piece may be as large as {@value #MAX_TRANSFER_PIECE} bytes: the kernel sends what the send buffer takes.
 */
public final class ConnectionOutput extends OutputStream {

    private static final byte[] EMPTY = new byte[0];
    /** Largest piece handed to the socket in one write. */
    static final int MAX_PIECE = 64 * 1024;
    /** Largest piece of a file region handed to a socket that is non-blocking beneath, in one transfer. */
    static final int MAX_TRANSFER_PIECE = 16 * 1024 * 1024;

    private final OutputStream out;
    /** The socket's channel, for file regions sent without copying; null where every byte goes through out (TLS). */
    private final SocketChannel channel;
    private final DataRateMeter meter;
    private byte[] buf;
    private int count;
    private long bytesWritten;
    /** Of {@link #bytesWritten}, those {@link FileChannel#transferTo} sent, never copied through the heap. */
    private long bytesTransferred;
    /** One byte of a file region, written to wait for room in the socket's send buffer; made on first need. */
    private ByteBuffer probe;
    /** Whether a virtual thread has used {@link #channel}, which makes its socket non-blocking beneath it. */
    private boolean channelNonBlocking;
    /** The thread of the write in progress, or of the last write. */
    private volatile Thread writer;
    /** The writing connection thread's turn, checked between pieces of a large write; or null. */
    private CarrierTurn turn;
    /** A write to the socket failed: the client closed or reset the connection, or it was cut. */
    private volatile boolean failed;
    /** Where the buffer goes while the connection is idle ({@link #park()}), or null to keep it. */
    private final BufferPool pool;
    /** Whether the buffer is back in {@link #pool}; the next write takes one again. */
    private boolean parked;

    /** An output without a minimum rate. */
    public ConnectionOutput(OutputStream out, int bufferSize) {
        this(out, bufferSize, DataRateMeter.unlimited());
    }

    /** An output whose writes {@code meter} measures (and stamps, for the write timeout). */
    public ConnectionOutput(OutputStream out, int bufferSize, DataRateMeter meter) {
        this(out, bufferSize, meter, null);
    }

    /**
     * An output whose writes {@code meter} measures and which sends file regions straight to {@code channel},
     * the channel of the socket {@code out} writes to, in blocking mode; {@code null} to copy them through
     * {@code out} (a TLS connection, whose bytes must be encrypted).
     */
    public ConnectionOutput(OutputStream out, int bufferSize, DataRateMeter meter, SocketChannel channel) {
        this.out = out;
        this.buf = new byte[bufferSize];
        this.meter = meter;
        this.channel = channel;
        this.pool = null;
    }

    /**
     * An output as {@link #ConnectionOutput(OutputStream, int, DataRateMeter, SocketChannel)} whose buffer, of
     * the pool's size, comes from {@code pool} at the first write and goes back to it while the connection is
     * idle ({@link #park()}).
     */
    public ConnectionOutput(OutputStream out, BufferPool pool, DataRateMeter meter, SocketChannel channel) {
        this.out = out;
        this.buf = EMPTY;
        this.parked = true; // the first write takes a buffer
        this.meter = meter;
        this.channel = channel;
        this.pool = pool;
    }

    /**
     * Makes socket writes give the carrier away between pieces when {@code turn}'s thread writes and its slice
     * is over: a handler streaming a large response lets the other connections in.
     */
    public void turn(CarrierTurn turn) {
        this.turn = turn;
    }

    /** When the write in progress started ({@link System#nanoTime()}), or 0 when none is blocked; any thread. */
    public long writeStartedNanos() {
        return CarrierTurn.wokenUp(writer) ? 0 : meter.waitingSince();
    }

    /** Starts measuring a new response against the minimum rate; call while no write is in progress. */
    public void restartRateMeter() {
        meter.restart();
    }

    /** Whether a write is in progress and the response has fallen below its minimum rate; any thread. */
    boolean tooSlow(long now) {
        return meter.tooSlow(now) && !CarrierTurn.wokenUp(writer);
    }

    /** See {@link DataRateMeter#behindSince}; any thread. */
    long behindSince(long now) {
        return CarrierTurn.wokenUp(writer) ? 0 : meter.behindSince(now);
    }

    /** The minimum rate in bytes per second, 0 for none. */
    long minRate() {
        return meter.bytesPerSecond();
    }

    /** Whether a write to the socket has failed (the client went away, or the connection was closed). */
    public boolean failed() {
        return failed;
    }

    /** Bytes written to the socket since the last call; for batching statistics updates. */
    public long takeBytesWritten() {
        long n = bytesWritten;
        bytesWritten = 0;
        return n;
    }

    /** Bytes sent from files without copying ({@link #write(FileRegion)}) since the last call; counted in both. */
    public long takeBytesTransferred() {
        long n = bytesTransferred;
        bytesTransferred = 0;
        return n;
    }

    /** Bytes buffered and not yet written to the socket. */
    public int pending() {
        return count;
    }

    /**
     * Writes what is buffered and drops the buffer, for a protocol handler that assembles its own writes
     * (WebSocket frames): an idle connection then keeps no buffer, and every write goes straight to the
     * socket.
     */
    public void releaseBuffer() throws IOException {
        drain();
        if (pool != null && !parked && buf.length == pool.arraySize()) {
            pool.give(buf);
        }
        buf = EMPTY;
        parked = false;
    }

    /**
     * Gives the buffer back to the pool while nothing is buffered: the connection waits for its next request.
     * The next write takes one again. Only the thread that writes may call it, and only between exchanges.
     */
    public void park() {
        if (pool != null && !parked && count == 0 && buf.length == pool.arraySize()) {
            pool.give(buf);
            buf = EMPTY;
            parked = true;
        }
    }

    private void unpark() {
        buf = pool.take();
        parked = false;
    }

    @Override
    public void write(int b) throws IOException {
        if (parked) {
            unpark();
        }
        if (buf.length == 0) {
            socketWrite(new byte[] {(byte) b}, 0, 1);
            return;
        }
        if (count == buf.length) {
            drain();
        }
        buf[count++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (parked) {
            unpark();
        }
        if (len <= buf.length - count) {
            System.arraycopy(b, off, buf, count, len);
            count += len;
            return;
        }
        drain();
        if (len >= buf.length) {
            socketWrite(b, off, len);
        } else {
            System.arraycopy(b, off, buf, 0, len);
            count = len;
        }
    }

    /**
     * Appends the low byte of each char: for ASCII and ISO-8859-1 text of heads. {@code String.getBytes(int,
     * int, byte[], int)} is deprecated for dropping the high byte, which is exactly what is wanted here: it
     * copies a Latin-1 string into the buffer with no allocation, the fastest way there is.
     */
    @SuppressWarnings("deprecation")
    public void writeLatin1(String s) throws IOException {
        if (parked) {
            unpark();
        }
        int len = s.length();
        if (len > buf.length - count) {
            drain();
            if (len > buf.length) {
                byte[] b = new byte[len];
                s.getBytes(0, len, b, 0);
                socketWrite(b, 0, len);
                return;
            }
        }
        s.getBytes(0, len, buf, count);
        count += len;
    }

    /** Appends a non-negative decimal number. */
    public void writeDecimal(long n) throws IOException {
        if (parked) {
            unpark();
        }
        if (buf.length < 20) {
            writeLatin1(Long.toString(n));
            return;
        }
        if (buf.length - count < 20) {
            drain();
        }
        if (n < 10) {
            buf[count++] = (byte) ('0' + n);
            return;
        }
        int digits = 0;
        for (long t = n; t > 0; t /= 10) {
            digits++;
        }
        int end = count + digits;
        for (int i = end - 1; i >= count; i--) {
            buf[i] = (byte) ('0' + n % 10);
            n /= 10;
        }
        count = end;
    }

    /** Appends a non-negative number in lower-case hexadecimal. */
    public void writeHex(long n) throws IOException {
        if (parked) {
            unpark();
        }
        if (buf.length < 16) {
            writeLatin1(Long.toHexString(n));
            return;
        }
        if (buf.length - count < 16) {
            drain();
        }
        int digits = Math.max(1, (64 - Long.numberOfLeadingZeros(n) + 3) / 4);
        for (int i = digits - 1; i >= 0; i--) {
            buf[count++] = (byte) Character.forDigit((int) (n >>> (i * 4)) & 0xf, 16);
        }
    }

    /**
     * Writes a region of a file after what is buffered. With a socket channel (cleartext) the bytes go from the
     * file to the socket by {@link FileChannel#transferTo}, never through the heap, in pieces of at most
     * {@value #MAX_PIECE} bytes, each measured, stamped for the write timeout and counted as any write; without
     * one they are copied. A region that fits in what is left of the buffer is read into it instead, so that it
     * leaves with the head before it in one write rather than in a second system call.
     *
     * @throws EOFException if the file ends before the region does; not a failure of the connection, though the
     *                      response it was part of is broken
     */
    public void write(FileRegion region) throws IOException {
        long n = region.count();
        if (n == 0) {
            return;
        }
        if (parked) {
            unpark();
        }
        if (n <= buf.length - count) {
            region.readInto(buf, count);
            count += (int) n;
            return;
        }
        if (channel == null) {
            region.copyTo(this);
            return;
        }
        drain();
        transfer(region);
    }

    private void transfer(FileRegion region) throws IOException {
        CarrierTurn t = turn;
        writer = Thread.currentThread();
        if (!channelNonBlocking && writer.isVirtual()) {
            // Any read or write of the channel on a virtual thread makes its socket non-blocking beneath it (the
            // connection's first read did); an empty write makes sure, so that a sendfile never blocks a carrier.
            try {
                channel.write(ByteBuffer.allocate(0));
            } catch (IOException e) {
                failed = true; // the connection was closed meanwhile
                throw e;
            }
            channelNonBlocking = true;
        }
        FileChannel file = region.file();
        long pos = region.position();
        long remaining = region.count();
        long piece = channelNonBlocking ? MAX_TRANSFER_PIECE : MAX_PIECE;
        while (remaining > 0) {
            if (t != null) {
                t.giveWayIfOver();
            }
            meter.begin(System.nanoTime());
            long sent = 0;
            int waited = 0;
            try {
                sent = file.transferTo(pos, Math.min(remaining, piece), channel);
                if (sent == 0) {
                    waited = awaitRoom(file, pos, remaining);
                }
            } catch (EOFException e) {
                throw e; // the file ended early: its fault, not the client's
            } catch (IOException e) {
                // A closed file is the caller's doing; anything else failed on the socket.
                failed = failed || file.isOpen() || !channel.isOpen();
                throw e;
            } finally {
                meter.end(System.nanoTime(), sent + waited);
            }
            bytesWritten += sent + waited;
            bytesTransferred += sent;
            pos += sent + waited;
            remaining -= sent + waited;
        }
    }

    /**
     * {@code transferTo} moved nothing: the socket's send buffer is full, or the file has ended. It never waits
     * for room (a virtual thread's socket is non-blocking beneath its blocking channel, and {@code sendfile}
     * answers that it would block), so one byte of the region goes through the channel's blocking write, which
     * parks the thread until the client has taken enough for more.
     *
     * @return the bytes written: 1
     */
    private int awaitRoom(FileChannel file, long pos, long remaining) throws IOException {
        ByteBuffer one = probe;
        if (one == null) {
            one = ByteBuffer.allocate(1);
            probe = one;
        }
        one.clear();
        if (file.read(one, pos) < 1) {
            throw FileRegion.endedEarly(remaining);
        }
        one.flip();
        while (one.hasRemaining()) {
            channel.write(one);
        }
        return 1;
    }

    /** Writes the buffered bytes to the socket and flushes it. */
    @Override
    public void flush() throws IOException {
        drain();
        out.flush();
    }

    private void drain() throws IOException {
        if (count > 0) {
            int n = count;
            count = 0;
            socketWrite(buf, 0, n);
        }
    }

    private void socketWrite(byte[] b, int off, int len) throws IOException {
        CarrierTurn t = turn;
        if (t != null) {
            t.giveWayIfOver();
        }
        writer = Thread.currentThread();
        while (len > 0) {
            int n = Math.min(len, MAX_PIECE);
            meter.begin(System.nanoTime());
            int moved = 0;
            try {
                out.write(b, off, n);
                moved = n;
            } catch (IOException e) {
                failed = true;
                throw e;
            } finally {
                meter.end(System.nanoTime(), moved);
            }
            bytesWritten += n;
            off += n;
            len -= n;
        }
    }

    /** Closing is the connection's job; this only flushes. */
    @Override
    public void close() throws IOException {
        flush();
    }
}
