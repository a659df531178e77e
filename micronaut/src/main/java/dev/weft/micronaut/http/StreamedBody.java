package dev.weft.micronaut.http;

import org.reactivestreams.Publisher;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Writes a streamed response body ({@code Publisher} routes, SSE, files read as a stream) on the exchange's own
 * thread: the publisher's pieces are requested a few at a time and handed over through a bounded queue, each
 * is written as it comes, and whatever was written is flushed whenever no further piece is waiting, so an SSE
 * event or a slowly produced piece reaches the client at once while a fast stream still leaves in large writes.
 * A client that stops reading holds the publisher back (no piece is requested while the queue is full).
 */
final class StreamedBody implements Subscriber<byte[]> {

    /** Pieces requested ahead of the writer. */
    static final int PREFETCH = 16;

    private static final Object COMPLETE = new Object();

    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(PREFETCH + 1);
    private volatile Subscription subscription;
    private int consumed;

    /**
     * Subscribes to {@code body} and writes every piece to {@code out} until it completes.
     *
     * @throws IOException if writing failed (the client went away) or the publisher failed (wrapped; the
     *                     response is then cut off so the client cannot take it for complete)
     */
    static void write(Publisher<byte[]> body, OutputStream out) throws IOException {
        StreamedBody pump = new StreamedBody();
        body.subscribe(pump);
        pump.drainTo(out);
    }

    private void drainTo(OutputStream out) throws IOException {
        try {
            while (true) {
                Object next = queue.poll();
                if (next == null) {
                    out.flush();
                    next = queue.take();
                }
                if (next == COMPLETE) {
                    return;
                }
                if (next instanceof Failure failure) {
                    throw new IOException("The response body failed after the response was committed: "
                            + failure.cause(), failure.cause());
                }
                out.write((byte[]) next);
                if (++consumed == PREFETCH / 2) {
                    consumed = 0;
                    subscription.request(PREFETCH / 2);
                }
            }
        } catch (InterruptedException ex) {
            cancel();
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while streaming the response");
        } catch (IOException | RuntimeException ex) {
            cancel();
            throw ex;
        }
    }

    private void cancel() {
        Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
    }

    @Override
    public void onSubscribe(Subscription s) {
        subscription = s;
        s.request(PREFETCH);
    }

    @Override
    public void onNext(byte[] bytes) {
        // never blocks: at most PREFETCH pieces are requested and not yet taken
        queue.offer(bytes);
    }

    @Override
    public void onError(Throwable t) {
        queue.offer(new Failure(t));
    }

    @Override
    public void onComplete() {
        queue.offer(COMPLETE);
    }

    private record Failure(Throwable cause) {
    }
}
