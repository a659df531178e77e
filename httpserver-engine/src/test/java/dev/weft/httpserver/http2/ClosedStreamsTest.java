package dev.weft.httpserver.http2;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ClosedStreamsTest {

    @Test
    void remembersHowRecentStreamsClosedAndForgetsTheOldest() {
        ClosedStreams closed = new ClosedStreams();
        closed.add(1, ClosedStreams.How.ENDED);
        closed.add(3, ClosedStreams.How.RESET_BY_US);
        assertEquals(ClosedStreams.How.ENDED, closed.find(1));
        assertEquals(ClosedStreams.How.RESET_BY_US, closed.find(3));
        assertNull(closed.find(5));
        for (int id = 5; id < 5 + 2 * 256; id += 2) {
            closed.add(id, ClosedStreams.How.RESET_BY_PEER);
        }
        assertNull(closed.find(1), "bounded: the oldest are forgotten");
        assertEquals(ClosedStreams.How.RESET_BY_PEER, closed.find(5 + 2 * 255));
    }
}
