package dev.weft.httpserver.http2;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FlowControlWindowTest {

    @Test
    void consumeAndIncrementMoveTheWindow() throws Http2Exception {
        FlowControlWindow w = new FlowControlWindow(1, 65_535);
        w.consume(65_000);
        assertEquals(535, w.size());
        w.increment(1000);
        assertEquals(1535, w.size());
        w.consume(1535);
        assertEquals(0, w.size());
    }

    @Test
    void consumingMoreThanTheStreamWindowIsStreamFlowControlError() throws Http2Exception {
        FlowControlWindow w = new FlowControlWindow(3, 100);
        var e = assertThrows(Http2StreamException.class, () -> w.consume(101));
        assertEquals(ErrorCode.FLOW_CONTROL_ERROR, e.errorCode());
        assertEquals(3, e.streamId());
        assertEquals(100, w.size());
    }

    @Test
    void consumingMoreThanTheConnectionWindowIsConnectionFlowControlError() {
        FlowControlWindow w = new FlowControlWindow(0, 10);
        var e = assertThrows(Http2ConnectionException.class, () -> w.consume(11));
        assertEquals(ErrorCode.FLOW_CONTROL_ERROR, e.errorCode());
    }

    @Test
    void incrementPastMaximumIsStreamErrorForStreamWindow() throws Http2Exception {
        FlowControlWindow w = new FlowControlWindow(5, 65_535);
        w.increment(Integer.MAX_VALUE - 65_535);
        assertEquals(Integer.MAX_VALUE, w.size());
        var e = assertThrows(Http2StreamException.class, () -> w.increment(1));
        assertEquals(ErrorCode.FLOW_CONTROL_ERROR, e.errorCode());
        assertEquals(5, e.streamId());
        assertEquals(Integer.MAX_VALUE, w.size());
    }

    @Test
    void incrementPastMaximumIsConnectionErrorForConnectionWindow() {
        FlowControlWindow w = new FlowControlWindow(0, 65_535);
        var e = assertThrows(Http2ConnectionException.class, () -> w.increment(Integer.MAX_VALUE));
        assertEquals(ErrorCode.FLOW_CONTROL_ERROR, e.errorCode());
    }

    @Test
    void streamLevelFlagFollowsStreamId() {
        assertFalse(new FlowControlWindow(0, 1).isStreamLevel());
        assertTrue(new FlowControlWindow(7, 1).isStreamLevel());
    }

    @Test
    void initialSizeReductionCanMakeWindowNegativeAndIncrementsRecoverIt() throws Http2Exception {
        FlowControlWindow w = new FlowControlWindow(1, 65_535);
        w.consume(60_000);
        w.adjustInitialSize(65_535, 1_000);
        assertEquals(-59_000, w.size());
        assertEquals(0, w.available());
        assertEquals(0, w.tryConsume(10));
        assertThrows(Http2StreamException.class, () -> w.consume(1));
        w.increment(60_000);
        assertEquals(1_000, w.size());
    }

    @Test
    void initialSizeIncreaseOverflowingIsConnectionErrorEvenForStreams() throws Http2Exception {
        FlowControlWindow w = new FlowControlWindow(1, 65_535);
        w.increment(Integer.MAX_VALUE - 65_535 - 10);
        var e = assertThrows(Http2ConnectionException.class, () -> w.adjustInitialSize(65_535, 65_546));
        assertEquals(ErrorCode.FLOW_CONTROL_ERROR, e.errorCode());
        w.adjustInitialSize(65_535, 65_545);
        assertEquals(Integer.MAX_VALUE, w.size());
    }

    @Test
    void tryConsumeTakesAtMostWhatIsAvailable() {
        FlowControlWindow w = new FlowControlWindow(1, 100);
        assertEquals(60, w.tryConsume(60));
        assertEquals(40, w.tryConsume(60));
        assertEquals(0, w.tryConsume(60));
        assertEquals(0, w.size());
    }

    @Test
    void nonPositiveIncrementIsRejectedAsMisuse() {
        FlowControlWindow w = new FlowControlWindow(1, 100);
        assertThrows(IllegalArgumentException.class, () -> w.increment(0));
        assertThrows(IllegalArgumentException.class, () -> w.consume(-1));
    }
}
