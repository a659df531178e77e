package dev.weft.httpserver.websocket;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The queue of one session's non-blocking sends, bounded by {@code maxQueuedBytes}. A send that finds no
 * writer running starts a virtual thread that takes the session's write lock and writes the queue in order;
 * a blocking send writes whatever is queued before its own message. Futures complete outside the queue's
 * lock, on the thread that wrote them (still holding the write lock, which is reentrant).
 */
final class AsyncSends {

    private record Pending(int opcode, byte[] data, int offset, int length, boolean room,
                           CompletableFuture<Void> done) {
    }

    private final WsSession session;
    private final long maxQueuedBytes;
    /** Guards the fields below; never held while writing. */
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private long queuedBytes;
    private boolean writerRunning;
    private boolean closed;

    AsyncSends(WsSession session, long maxQueuedBytes) {
        this.session = session;
        this.maxQueuedBytes = maxQueuedBytes;
    }

    /**
     * Queues a whole message; fails at once when the session is closed or the queue would pass its bound.
     *
     * @param room whether {@code data} has {@link WsFrameWriter#HEADER_ROOM} free bytes before {@code offset}
     */
    CompletableFuture<Void> add(int opcode, byte[] data, int offset, int length, boolean room) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        boolean start;
        lock.lock();
        try {
            if (closed || !session.isOpen()) {
                return CompletableFuture.failedFuture(new IOException("WebSocket is closed"));
            }
            if (queuedBytes + length > maxQueuedBytes) {
                return CompletableFuture.failedFuture(new IOException(
                        "send queue full: " + queuedBytes + " bytes queued, maxQueuedBytes " + maxQueuedBytes));
            }
            queue.add(new Pending(opcode, data, offset, length, room, done));
            queuedBytes += length;
            start = !writerRunning;
            writerRunning = true;
        } finally {
            lock.unlock();
        }
        if (start) {
            Thread.ofVirtual().name("weft-ws-send").start(this::writeQueue);
        }
        return done;
    }

    private void writeQueue() {
        session.writeLock.lock();
        try {
            drainLocked(true);
        } finally {
            session.writeLock.unlock();
        }
    }

    /**
     * Writes the queued messages in order; the caller holds the session's write lock. Stops while a message
     * is being sent in parts (its last part drains the queue).
     *
     * @param writerThread whether the caller is the queue's own writer, which stops running when it empties
     */
    void drainLocked(boolean writerThread) {
        List<Runnable> completions = new ArrayList<>();
        try {
            while (true) {
                Pending p;
                lock.lock();
                try {
                    p = session.sendingParts() ? null : queue.poll();
                    if (p == null) {
                        if (writerThread) {
                            writerRunning = false;
                        }
                        return;
                    }
                    queuedBytes -= p.length;
                } finally {
                    lock.unlock();
                }
                if (session.closeSent() || session.aborted()) {
                    completions.add(() -> p.done.completeExceptionally(new IOException("WebSocket is closed")));
                    continue;
                }
                try {
                    session.writeDataLocked(p.opcode, true, session.compresses(p.length), p.data, p.offset,
                            p.length, true, p.room);
                    completions.add(() -> p.done.complete(null));
                } catch (IOException e) {
                    completions.add(() -> p.done.completeExceptionally(e));
                }
            }
        } finally {
            completions.forEach(Runnable::run);
        }
    }

    /** Fails every queued send and refuses new ones; the session has closed. */
    void failAll(IOException cause) {
        List<Pending> failed;
        lock.lock();
        try {
            closed = true;
            failed = new ArrayList<>(queue);
            queue.clear();
            queuedBytes = 0;
        } finally {
            lock.unlock();
        }
        failed.forEach(p -> p.done.completeExceptionally(cause));
    }
}
