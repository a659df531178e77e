package dev.weft.httpserver.http2;

import dev.weft.httpserver.core.ClientClosedException;
import dev.weft.httpserver.core.ConnectionOutput;
import dev.weft.httpserver.hpack.HeaderBlockBuffer;
import dev.weft.httpserver.hpack.HeaderField;
import dev.weft.httpserver.hpack.HpackEncoder;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The single writer of one HTTP/2 connection. Stream threads and the reader queue frames; this writer's own
 * thread takes everything queued at once, writes it into the connection buffer and flushes once per batch.
 * Header blocks are HPACK-encoded here, in the order they are sent, so the encoder needs no lock.
 *
 * <p>Stream threads wait while too many bytes are queued (the socket is slower than they are); the reader
 * never waits: a peer that makes us queue too many control frames without reading them is cut off.
 */
final class ConnectionWriter implements Runnable {

    /** Frames to send; headers are encoded by the writer thread. */
    sealed interface Item {
    }

    /** Complete encoded frames. */
    record Frames(byte[] bytes) implements Item {
    }

    /** A header block (response head, interim response or trailers) to encode and send. */
    record HeaderBlock(int streamId, List<HeaderField> fields, boolean endStream) implements Item {
    }

    /** The peer's new settings that affect encoding, applied in order before the SETTINGS ACK is sent. */
    record PeerSettings(long headerTableSize, int maxFrameSize) implements Item {
    }

    private static final int MAX_QUEUED_BYTES = 256 * 1024;
    private static final int MAX_QUEUED_CONTROL_FRAMES = 10_000;
    private static final byte[] SETTINGS_ACK = new FrameWriter().encode(Frame.SettingsFrame.ACK);

    private final ConnectionOutput out;
    private final Runnable onFailure;
    private final Runnable afterFlush;
    private final HpackEncoder encoder = new HpackEncoder();
    private final FrameWriter frameWriter = new FrameWriter();
    private final HeaderBlockBuffer block = new HeaderBlockBuffer();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    private final Condition finished = lock.newCondition();
    // Guarded by lock.
    private ArrayDeque<Item> queue = new ArrayDeque<>();
    /** The other of the two queues: the batch the writer thread is writing. */
    private ArrayDeque<Item> spare = new ArrayDeque<>();
    private long queuedBytes;
    private int queuedControlFrames;
    private boolean closing;
    private boolean done;
    private IOException failure;
    // Writer thread only.
    /** The client's first SETTINGS were applied: the connection's opening is over. */
    private boolean peerSettingsApplied;

    /**
     * @param onFailure  run (on the writer thread) when a write fails, to close the connection
     * @param afterFlush run (on the writer thread) after each flush, e.g. to publish byte counts
     */
    ConnectionWriter(ConnectionOutput out, Runnable onFailure, Runnable afterFlush) {
        this.out = out;
        this.onFailure = onFailure;
        this.afterFlush = afterFlush;
    }

    /**
     * A stream as the writer sees it. The writer calls its hooks under the writer's lock as a frame that changes
     * the stream's state is queued, so that the state changes before the client can see the frame (the lock
     * order is: the writer's lock, then the stream's).
     */
    abstract static class StreamFrames {
        /** Our RST_STREAM is queued: nothing of this stream may follow it. Guarded by the writer's lock. */
        private boolean resetQueued;

        /** Throws if the stream may send no more frames (closed, or reset either way). */
        abstract void checkSendable() throws IOException;

        /** Whether the stream is closed: frames of it are no longer sent. */
        abstract boolean isClosed();

        /**
         * Our END_STREAM for this stream has just been queued.
         *
         * @return whether that closed the stream (the caller then releases it, outside the writer's lock)
         */
        abstract boolean endStreamQueued();

        /**
         * Our RST_STREAM for this stream is about to be queued.
         *
         * @return false if the stream is closed already: nothing is queued
         */
        abstract boolean resetQueuing();
    }

    /**
     * Queues a frame of a stream, preceded by {@code head} unless that is null, waiting while the queue is
     * full. A response head the stream held back thus leaves with its first body bytes, under one lock.
     *
     * @param endStream whether {@code item} carries END_STREAM
     * @return whether queuing {@code item} closed the stream (see {@link StreamFrames#endStreamQueued})
     * @throws IOException if the stream was reset or closed, or the connection failed or is closing
     */
    boolean send(StreamFrames stream, Item head, Item item, boolean endStream) throws IOException {
        lock.lock();
        try {
            while (queuedBytes > MAX_QUEUED_BYTES && failure == null && !closing) {
                notFull.awaitUninterruptibly();
            }
            checkOpen();
            if (stream.resetQueued) {
                throw new ClientClosedException("stream reset");
            }
            stream.checkSendable();
            if (head != null) {
                add(head);
            }
            add(item);
            return endStream && stream.endStreamQueued();
        } finally {
            lock.unlock();
        }
    }

    /** Queues a stream's held-back response head on its own (e.g. the handler flushed before writing). */
    void sendHead(StreamFrames stream, Item head) throws IOException {
        lock.lock();
        try {
            if (!stream.resetQueued && !stream.isClosed()) {
                checkOpen();
                add(head);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues a WINDOW_UPDATE of a stream without waiting, unless the stream is closed or the connection going
     * away (then it is dropped: nobody needs the credit). The reader may call it too.
     */
    void sendWindowUpdate(StreamFrames stream, Item update) {
        lock.lock();
        try {
            if (!stream.resetQueued && !stream.isClosed() && failure == null && !closing) {
                add(update);
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues a stream's RST_STREAM without waiting; nothing more of that stream is sent after it.
     *
     * @return false if the stream was closed already, so nothing was queued
     */
    boolean reset(StreamFrames stream, Item rst) {
        lock.lock();
        try {
            if (!stream.resetQueuing()) {
                return false;
            }
            stream.resetQueued = true;
            if (failure == null && !closing) {
                add(rst);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Queues a control frame from the reader without waiting.
     *
     * @return false if the peer left too many control frames unread (the caller should drop it)
     */
    boolean sendControl(Item item) {
        lock.lock();
        try {
            if (failure != null || closing) {
                return true; // the connection is going away; nothing to send
            }
            if (++queuedControlFrames > MAX_QUEUED_CONTROL_FRAMES) {
                return false;
            }
            add(item);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Queues a last frame (e.g. GOAWAY) even while closing, unless the connection already failed. */
    void sendFinal(Item item) {
        lock.lock();
        try {
            if (failure == null && !done) {
                add(item);
            }
        } finally {
            lock.unlock();
        }
    }

    private void add(Item item) {
        queue.add(item);
        queuedBytes += item instanceof Frames f ? f.bytes.length : 64;
        if (queue.size() == 1) {
            notEmpty.signal();
        }
    }

    private void checkOpen() throws IOException {
        if (failure != null) {
            throw new ClientClosedException("connection failed", failure);
        }
        if (closing) {
            throw new ClientClosedException("connection closed");
        }
    }

    /** Stops taking frames from streams; the writer sends what is queued, flushes and ends. */
    void close() {
        lock.lock();
        try {
            closing = true;
            notEmpty.signal();
            notFull.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until the writer has sent everything and ended, at most {@code timeoutNanos}. */
    boolean awaitFinished(long timeoutNanos) {
        lock.lock();
        try {
            long left = timeoutNanos;
            while (!done && left > 0) {
                left = finished.awaitNanos(left);
            }
            return done;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return done;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void run() {
        try {
            ArrayDeque<Item> batch = takeBatch();
            while (batch != null && !peerSettingsApplied) {
                writeOpeningBatch(batch);
                batch = takeBatch();
            }
            for (; batch != null; batch = takeBatch()) {
                writeBatch(batch);
            }
            out.flush();
        } catch (IOException | InterruptedException | RuntimeException e) {
            lock.lock();
            try {
                failure = e instanceof IOException io ? io : new IOException(e);
                queue.clear();
                notFull.signalAll();
            } finally {
                lock.unlock();
            }
            onFailure.run();
        } finally {
            lock.lock();
            try {
                done = true;
                finished.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Waits until something is queued and takes all of it; null once closing with nothing left. */
    private ArrayDeque<Item> takeBatch() throws InterruptedException {
        lock.lock();
        try {
            while (queue.isEmpty() && !closing) {
                notEmpty.await();
            }
            if (queue.isEmpty()) {
                return null;
            }
            ArrayDeque<Item> taken = queue;
            queue = spare; // emptied by the previous writeBatch
            spare = taken;
            queuedBytes = 0;
            queuedControlFrames = 0;
            notFull.signalAll();
            return taken;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Writes a batch into the connection buffer and flushes, unless more was queued meanwhile. A method of
     * its own, called per batch, so that the JIT compiles it as such rather than only as part of the
     * never-ending loop in {@link #run} (an on-stack replacement that a deoptimisation sends back to the
     * interpreter for every connection at once).
     */
    private void writeBatch(ArrayDeque<Item> batch) throws IOException {
        for (Item item; (item = batch.poll()) != null; ) {
            write(item);
        }
        if (isQueueEmpty()) {
            // Give the streams that are about to answer a chance to queue, so that their frames
            // leave in this flush rather than in one each.
            Thread.yield();
            if (isQueueEmpty()) {
                out.flush();
                afterFlush.run();
            }
        }
    }

    /**
     * Writes a batch of the connection's opening, up to the client's first SETTINGS, and flushes. The
     * opening's own path keeps the peer's settings, which only new connections send, out of the compiled
     * steady-state path (see {@link #writeBatch}): the JIT would otherwise discard and compile that again
     * whenever new connections arrive.
     */
    private void writeOpeningBatch(ArrayDeque<Item> batch) throws IOException {
        for (Item item; (item = batch.poll()) != null; ) {
            if (item instanceof PeerSettings s) {
                apply(s);
            } else {
                write(item);
            }
        }
        out.flush();
        afterFlush.run();
    }

    private boolean isQueueEmpty() {
        lock.lock();
        try {
            return queue.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    private void write(Item item) throws IOException {
        switch (item) {
            case Frames f -> out.write(f.bytes, 0, f.bytes.length);
            case HeaderBlock h -> writeHeaderBlock(h);
            case PeerSettings s -> apply(s);
        }
    }

    /** Applies the peer's new settings to what we send, then acknowledges them. */
    private void apply(PeerSettings s) throws IOException {
        encoder.setPeerMaxTableSize((int) Math.min(Integer.MAX_VALUE, s.headerTableSize));
        frameWriter.maxFrameSize(s.maxFrameSize);
        out.write(SETTINGS_ACK, 0, SETTINGS_ACK.length);
        peerSettingsApplied = true;
    }

    /** Encodes a header block and writes it as HEADERS plus as many CONTINUATION frames as needed. */
    private void writeHeaderBlock(HeaderBlock h) throws IOException {
        block.reset();
        encoder.encode(h.fields, block);
        frameWriter.writeHeaderBlock(out, h.streamId, block.array(), block.size(), h.endStream);
    }
}
