package dev.weft.websocket.jakarta.session;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One incoming message that a {@code Reader} or {@code InputStream} handler reads while its parts are still
 * arriving: the handler runs on a virtual thread of its own from the message's first frame; the session's thread
 * hands it each part (waiting while a few are unread, so that a slow reader holds the peer back) and, after the
 * last, waits for the handler to return, so messages still reach the endpoint one at a time and in order.
 */
final class StreamedMessage {

    /** What the handler does with the stream. */
    interface Handler {
        void read(Object stream) throws Exception;
    }

    /** Parts handed over and not yet read before the session's thread waits. */
    private static final int UNREAD_PARTS = 4;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<Object> parts = new ArrayDeque<>();
    /** The last part has been handed over. */
    private boolean ended;
    /** The handler returned or closed its stream: parts still arriving are dropped. */
    private boolean readerDone;
    /** The session ended before the message did. */
    private boolean aborted;
    private final Thread thread;
    private Throwable failure;

    /** Starts {@code handler} on a {@link Reader} ({@code text}) or an {@link InputStream} of the message. */
    StreamedMessage(boolean text, Handler handler) {
        Object stream = text ? new PartReader() : new PartInputStream();
        thread = Thread.ofVirtual().name("weft-jakarta-message-stream").start(() -> {
            try {
                handler.read(stream);
            } catch (Throwable t) {
                failure = t;
            } finally {
                readerDone();
            }
        });
    }

    /**
     * Hands over the next part (a {@code String} or a {@code ByteBuffer}), waiting while the handler has several
     * unread; dropped if the handler is done reading.
     */
    void add(Object part, boolean last) throws InterruptedIOException {
        lock.lock();
        try {
            while (parts.size() >= UNREAD_PARTS && !readerDone) {
                changed.await();
            }
            boolean empty = part instanceof String s ? s.isEmpty() : !((ByteBuffer) part).hasRemaining();
            if (!readerDone && !empty) {
                parts.add(part);
            }
            ended = last;
            changed.signalAll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted handing a message part to its reader");
        } finally {
            lock.unlock();
        }
    }

    /** After the last part: waits for the handler to return; what it threw, or null. */
    Throwable awaitHandler() throws InterruptedIOException {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a message's reader");
        }
        return failure;
    }

    /** The session ended before the message did: the handler's next read fails. */
    void abort() {
        lock.lock();
        try {
            aborted = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    private void readerDone() {
        lock.lock();
        try {
            readerDone = true;
            parts.clear();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The next part for the handler; null at the end of the message. */
    private Object take() throws IOException {
        lock.lock();
        try {
            while (parts.isEmpty()) {
                if (ended) {
                    return null;
                }
                if (aborted || readerDone) {
                    throw new IOException(readerDone ? "stream closed" : "the session ended before the message did");
                }
                changed.await();
            }
            Object part = parts.poll();
            changed.signalAll();
            return part;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for the next part of the message");
        } finally {
            lock.unlock();
        }
    }

    /** The text message as it arrives. */
    private final class PartReader extends Reader {
        private String current = "";
        private int pos;
        private boolean end;

        @Override
        public int read(char[] cbuf, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, cbuf.length);
            if (len == 0) {
                return 0;
            }
            while (pos == current.length()) {
                Object next = end ? null : take();
                if (next == null) {
                    end = true;
                    return -1;
                }
                current = (String) next;
                pos = 0;
            }
            int n = Math.min(len, current.length() - pos);
            current.getChars(pos, pos + n, cbuf, off);
            pos += n;
            return n;
        }

        @Override
        public void close() {
            readerDone();
        }
    }

    /** The binary message as it arrives. */
    private final class PartInputStream extends InputStream {
        private ByteBuffer current = ByteBuffer.allocate(0);
        private boolean end;

        /** Moves on to a part with bytes left; false at the end of the message. */
        private boolean fill() throws IOException {
            while (!current.hasRemaining()) {
                Object next = end ? null : take();
                if (next == null) {
                    end = true;
                    return false;
                }
                current = (ByteBuffer) next;
            }
            return true;
        }

        @Override
        public int read() throws IOException {
            return fill() ? current.get() & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            if (len == 0) {
                return 0;
            }
            if (!fill()) {
                return -1;
            }
            int n = Math.min(len, current.remaining());
            current.get(b, off, n);
            return n;
        }

        @Override
        public int available() {
            return current.remaining();
        }

        @Override
        public void close() {
            readerDone();
        }
    }
}
