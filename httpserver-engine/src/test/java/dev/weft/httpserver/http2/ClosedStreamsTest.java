package dev.weft.httpserver.http2;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ClosedStreamsTest {

    @Test
    void remembersHowRecentStreamsClosedAndForgetsTheOldest() {
        ClosedStreams closed = new ClosedStreams();
        closed.add(1, StreamState.CLOSED);
        closed.add(3, StreamState.RESET_SENT);
        assertEquals(StreamState.CLOSED, closed.find(1));
        assertEquals(StreamState.RESET_SENT, closed.find(3));
        assertNull(closed.find(5));
        for (int id = 5; id < 5 + 2 * 256; id += 2) {
            closed.add(id, StreamState.RESET_RECEIVED);
        }
        assertNull(closed.find(1), "bounded: the oldest are forgotten");
        assertEquals(StreamState.RESET_RECEIVED, closed.find(5 + 2 * 255));
    }
}
