package dev.weft.httpserver.http2;

import java.util.concurrent.locks.ReentrantLock;

/**
 * How the most recently closed streams of a connection ended, so that late frames for them get the answer
 * RFC 9113 §5.1 asks for: ignored after our RST_STREAM, a stream error after the peer's, a connection
 * error after a normal end. Bounded: older streams are forgotten.
 */
final class ClosedStreams {

    /** How a stream closed. */
    enum How { RESET_BY_US, RESET_BY_PEER, ENDED }

    private static final int CAPACITY = 256;
    private static final How[] HOWS = How.values();

    private final ReentrantLock lock = new ReentrantLock();
    private final int[] ids = new int[CAPACITY];
    private final byte[] hows = new byte[CAPACITY];
    private int next;

    void add(int streamId, How how) {
        lock.lock();
        try {
            ids[next] = streamId;
            hows[next] = (byte) how.ordinal();
            next = (next + 1) % CAPACITY;
        } finally {
            lock.unlock();
        }
    }

    /** How the stream closed, or {@code null} if it is not remembered. */
    How find(int streamId) {
        lock.lock();
        try {
            // Newest first: a stream id is recorded once, but be exact if it ever was twice.
            for (int i = 1; i <= CAPACITY; i++) {
                int slot = (next - i + CAPACITY) % CAPACITY;
                if (ids[slot] == streamId) {
                    return HOWS[hows[slot]];
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }
}
