package dev.weft.micronaut.app;

import io.micronaut.websocket.CloseReason;
import jakarta.inject.Singleton;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** The close reasons {@link EchoSocket}'s {@code @OnClose} received, for the tests to wait on. */
@Singleton
public class WebSocketCloses {

    /** A room and the reason its session closed with. */
    public record Closed(String room, CloseReason reason) {
    }

    private final BlockingQueue<Closed> closed = new LinkedBlockingQueue<>();

    void record(String room, CloseReason reason) {
        closed.add(new Closed(room, reason));
    }

    /** The next close of {@code room} within 20 seconds (others are dropped), or {@code null}. */
    public Closed next(String room) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            Closed c = closed.poll(left, TimeUnit.NANOSECONDS);
            if (c == null || c.room().equals(room)) {
                return c;
            }
        }
        return null;
    }
}
