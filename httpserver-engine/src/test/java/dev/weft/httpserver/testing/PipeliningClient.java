package dev.weft.httpserver.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A connection that sends the same batch of pipelined requests over and over without pause (its writes block
 * only while the server's buffers are full, so the server always finds the next request at hand) and reads the
 * responses as fast as they come, on two platform threads of its own.
 */
public final class PipeliningClient implements AutoCloseable {

    private final Socket socket = new Socket();
    private final byte[] batch;
    private final AtomicLong received = new AtomicLong();
    private final Thread writer;
    private final Thread reader;

    /** Starts sending {@code batch} (one or more complete requests) to the server at {@code port}. */
    public PipeliningClient(int port, byte[] batch) throws IOException {
        this.batch = batch.clone();
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        writer = Thread.ofPlatform().daemon().name("pipelining-writer").start(this::write);
        reader = Thread.ofPlatform().daemon().name("pipelining-reader").start(this::read);
    }

    /** Bytes of responses received so far. */
    public long received() {
        return received.get();
    }

    /** Whether it is still sending and receiving: neither side has seen the connection end. */
    public boolean isRunning() {
        return writer.isAlive() && reader.isAlive();
    }

    private void write() {
        try {
            OutputStream out = socket.getOutputStream();
            while (!socket.isClosed()) {
                out.write(batch);
            }
        } catch (IOException closed) {
            // the connection ended: isRunning() reports it
        }
    }

    private void read() {
        byte[] buffer = new byte[1 << 16];
        try {
            InputStream in = socket.getInputStream();
            for (int n; (n = in.read(buffer)) >= 0; ) {
                received.addAndGet(n);
            }
        } catch (IOException closed) {
            // the connection ended: isRunning() reports it
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
            writer.join(Duration.ofSeconds(5));
            reader.join(Duration.ofSeconds(5));
        } catch (IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
