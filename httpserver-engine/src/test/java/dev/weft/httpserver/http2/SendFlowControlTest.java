package dev.weft.httpserver.http2;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which WINDOW_UPDATEs return credit for data we sent (free) and which have no such effect (flood budget). */
class SendFlowControlTest {

    private final SendFlowControl flow = new SendFlowControl(0, 0);

    @Test
    void anUpdateWithNoDataInFlightIsNotEarned() throws Http2Exception {
        assertFalse(flow.connectionUpdate(1));
        assertFalse(flow.closedStreamUpdate(1));
    }

    @Test
    void returningTheCreditOfSentDataIsEarnedOnceInBytesAndFrames() throws Http2Exception {
        assertTrue(flow.tryTakeConnectionWindow(1000)); // one DATA frame of 1000 octets
        assertTrue(flow.connectionUpdate(1000), "the credit of the frame, at once");
        assertFalse(flow.connectionUpdate(1), "nothing more is owed");
        assertTrue(flow.closedStreamUpdate(600), "the stream's credit counts separately");
        assertFalse(flow.closedStreamUpdate(400), "one free update per frame");
    }

    @Test
    void plusOneUpdatesEarnAtMostOneFreeUpdatePerFrameSent() throws Http2Exception {
        for (int i = 0; i < 10; i++) {
            assertTrue(flow.tryTakeConnectionWindow(1000));
        }
        int free = 0;
        for (int i = 0; i < 10_000; i++) {
            if (flow.connectionUpdate(1)) {
                free++;
            }
        }
        assertTrue(free == 10, "free updates: " + free);
    }

    @Test
    void moreCreditThanWasSentIsNotEarned() throws Http2Exception {
        assertTrue(flow.tryTakeConnectionWindow(100));
        assertFalse(flow.connectionUpdate(101));
    }
}
