package dev.weft.httpserver.testing;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A slow client's pacing: sends bytes one at a time with a pause before each, on a virtual thread of its own,
 * until all are sent, the server closes the connection, or {@link #close()} stops it. The pauses are what a
 * slow client is made of, not a way to wait for the server.
 */
public final class Trickle implements AutoCloseable {

    private final Thread thread;
    private final AtomicInteger sent = new AtomicInteger();
    private volatile IOException failure;

    private Trickle(RawHttpClient client, int count, Duration pause) {
        this.thread = Thread.ofVirtual().name("trickle").start(() -> {
            byte[] one = {'x'};
            try {
                for (int i = 0; i < count; i++) {
                    Thread.sleep(pause);
                    client.send(one);
                    sent.incrementAndGet();
                }
            } catch (IOException e) {
                failure = e; // the server closed or reset the connection
            } catch (InterruptedException e) {
                // stopped by close()
            }
        });
    }

    /** Starts sending {@code count} bytes over {@code client}, each after a pause of {@code pause}. */
    public static Trickle start(RawHttpClient client, int count, Duration pause) {
        return new Trickle(client, count, pause);
    }

    /** Bytes sent so far. */
    public int sent() {
        return sent.get();
    }

    /** Whether sending failed because the connection was closed or reset. */
    public boolean failed() {
        return failure != null;
    }

    /** Waits for the last byte to be sent (or for sending to fail); false if that takes longer than {@code limit}. */
    public boolean await(Duration limit) throws InterruptedException {
        return thread.join(limit);
    }

    /** Stops sending. */
    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join(Duration.ofSeconds(5));
    }
}
