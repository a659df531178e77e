package dev.weft.httpserver.http2;

import java.util.concurrent.locks.ReentrantLock;

/**
 * How the most recently closed streams of a connection ended (their closed {@link StreamState}), so that late
 * frames for them get the answer RFC 9113 §5.1 asks for once the stream object is gone: ignored after our
 * RST_STREAM, a stream error after the peer's, a connection error after a normal end. Bounded: older streams
 * are forgotten.
 */
final class ClosedStreams {

    private static final int CAPACITY = 256;
    private static final StreamState[] STATES = StreamState.values();

    private final ReentrantLock lock = new ReentrantLock();
    private final int[] ids = new int[CAPACITY];
    private final byte[] states = new byte[CAPACITY];
    private int next;

    /** Remembers that {@code streamId} closed in {@code state} (one of the closed states). */
    void add(int streamId, StreamState state) {
        lock.lock();
        try {
            ids[next] = streamId;
            states[next] = (byte) state.ordinal();
            next = (next + 1) % CAPACITY;
        } finally {
            lock.unlock();
        }
    }

    /** How the stream closed, or {@code null} if it is not remembered. */
    StreamState find(int streamId) {
        lock.lock();
        try {
            // Newest first: a stream id is recorded once, but be exact if it ever was twice.
            for (int i = 1; i <= CAPACITY; i++) {
                int slot = (next - i + CAPACITY) % CAPACITY;
                if (ids[slot] == streamId) {
                    return STATES[states[slot]];
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }
}
