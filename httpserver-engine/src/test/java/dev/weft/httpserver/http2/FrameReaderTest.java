package dev.weft.httpserver.http2;

import dev.weft.httpserver.http2.Frame.DataFrame;
import dev.weft.httpserver.http2.Frame.HeadersFrame;
import dev.weft.httpserver.http2.Frame.SettingsFrame;
import dev.weft.httpserver.http2.Frame.UnknownFrame;
import dev.weft.httpserver.http2.Frame.WindowUpdateFrame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;

import static dev.weft.httpserver.http2.ErrorCode.FLOW_CONTROL_ERROR;
import static dev.weft.httpserver.http2.ErrorCode.FRAME_SIZE_ERROR;
import static dev.weft.httpserver.http2.ErrorCode.PROTOCOL_ERROR;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FrameReaderTest {

    /** A raw frame: 9-octet header followed by {@code payload}; the length field is the payload length. */
    static byte[] raw(int type, int flags, int streamId, int... payload) {
        byte[] b = new byte[9 + payload.length];
        b[0] = (byte) (payload.length >>> 16);
        b[1] = (byte) (payload.length >>> 8);
        b[2] = (byte) payload.length;
        b[3] = (byte) type;
        b[4] = (byte) flags;
        b[5] = (byte) (streamId >>> 24);
        b[6] = (byte) (streamId >>> 16);
        b[7] = (byte) (streamId >>> 8);
        b[8] = (byte) streamId;
        for (int i = 0; i < payload.length; i++) {
            b[9 + i] = (byte) payload[i];
        }
        return b;
    }

    static Frame read(byte[] wire) throws IOException {
        return new FrameReader(new ByteArrayInputStream(wire)).readFrame();
    }

    static void assertConnectionError(ErrorCode code, byte[] wire) {
        Http2ConnectionException e = assertThrows(Http2ConnectionException.class, () -> read(wire));
        assertEquals(code, e.errorCode());
    }

    static void assertStreamError(ErrorCode code, int streamId, byte[] wire) {
        Http2StreamException e = assertThrows(Http2StreamException.class, () -> read(wire));
        assertEquals(code, e.errorCode());
        assertEquals(streamId, e.streamId());
    }

    @Test
    void frameLargerThanMaxFrameSizeIsConnectionFrameSizeError() {
        byte[] wire = raw(0, 0, 1, new int[16_385]);
        assertConnectionError(FRAME_SIZE_ERROR, wire);
    }

    @Test
    void frameOfExactlyMaxFrameSizeIsAccepted() throws IOException {
        assertEquals(16_384, ((DataFrame) read(raw(0, 0, 1, new int[16_384]))).data().length);
    }

    @ParameterizedTest(name = "type {0}")
    @ValueSource(ints = {0x0, 0x1, 0x2, 0x3, 0x5, 0x9})
    void streamFramesOnStreamZeroAreConnectionProtocolErrors(int type) {
        assertConnectionError(PROTOCOL_ERROR, raw(type, 0, 0, 0, 0, 0, 0, 0));
    }

    @ParameterizedTest(name = "type {0}")
    @ValueSource(ints = {0x4, 0x6, 0x7})
    void connectionFramesOnNonZeroStreamAreConnectionProtocolErrors(int type) {
        assertConnectionError(PROTOCOL_ERROR, raw(type, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0));
    }

    @Test
    void pingOfWrongLengthIsConnectionFrameSizeError() {
        assertConnectionError(FRAME_SIZE_ERROR, raw(0x6, 0, 0, 1, 2, 3, 4, 5, 6, 7));
        assertConnectionError(FRAME_SIZE_ERROR, raw(0x6, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
    }

    @Test
    void priorityOfWrongLengthIsStreamFrameSizeError() {
        assertStreamError(FRAME_SIZE_ERROR, 3, raw(0x2, 0, 3, 0, 0, 0, 1));
    }

    @Test
    void priorityFrameOnItselfIsStreamProtocolError() {
        assertStreamError(PROTOCOL_ERROR, 3, raw(0x2, 0, 3, 0, 0, 0, 3, 15));
    }

    @Test
    void headersDependingOnItselfAreReturnedForTheConnectionToRejectAfterDecoding() throws IOException {
        Frame f = new FrameReader(new java.io.ByteArrayInputStream(
                raw(0x1, FrameFlags.PRIORITY | FrameFlags.END_HEADERS, 3, 0, 0, 0, 3, 15))).readFrame();
        assertEquals(3, ((Frame.HeadersFrame) f).priority().dependency());
    }

    @Test
    void rstStreamOfWrongLengthIsConnectionFrameSizeError() {
        assertConnectionError(FRAME_SIZE_ERROR, raw(0x3, 0, 1, 0, 0, 8));
    }

    @Test
    void windowUpdateOfWrongLengthIsConnectionFrameSizeError() {
        assertConnectionError(FRAME_SIZE_ERROR, raw(0x8, 0, 1, 0, 0, 0, 1, 0));
    }

    @Test
    void zeroWindowIncrementIsStreamErrorOnStreamAndConnectionErrorOnStreamZero() {
        assertStreamError(PROTOCOL_ERROR, 5, raw(0x8, 0, 5, 0, 0, 0, 0));
        assertConnectionError(PROTOCOL_ERROR, raw(0x8, 0, 0, 0, 0, 0, 0));
        assertConnectionError(PROTOCOL_ERROR, raw(0x8, 0, 0, 0x80, 0, 0, 0)); // reserved bit only
    }

    @Test
    void settingsNotAMultipleOfSixIsConnectionFrameSizeError() {
        assertConnectionError(FRAME_SIZE_ERROR, raw(0x4, 0, 0, 0, 1, 0, 0, 0));
    }

    @Test
    void settingsAckWithPayloadIsConnectionFrameSizeError() {
        assertConnectionError(FRAME_SIZE_ERROR, raw(0x4, FrameFlags.ACK, 0, 0, 1, 0, 0, 0, 0));
    }

    @Test
    void settingsWithInvalidValuesMapToTheirErrorCodes() {
        assertConnectionError(PROTOCOL_ERROR, raw(0x4, 0, 0, 0, 2, 0, 0, 0, 2)); // ENABLE_PUSH=2
        assertConnectionError(FLOW_CONTROL_ERROR, raw(0x4, 0, 0, 0, 4, 0x80, 0, 0, 0)); // 2^31
        assertConnectionError(PROTOCOL_ERROR, raw(0x4, 0, 0, 0, 5, 0, 0, 0x3F, 0xFF)); // 16383
        assertConnectionError(PROTOCOL_ERROR, raw(0x4, 0, 0, 0, 5, 0x01, 0, 0, 0)); // 2^24
        assertConnectionError(PROTOCOL_ERROR, raw(0x4, 0, 0, 0, 8, 0, 0, 0, 2)); // ENABLE_CONNECT_PROTOCOL=2
    }

    @Test
    void settingsWithUnknownIdentifierIsAccepted() throws IOException {
        SettingsFrame f = (SettingsFrame) read(raw(0x4, 0, 0, 0x12, 0x34, 0xFF, 0xFF, 0xFF, 0xFF));
        assertEquals(new Http2Settings.Setting(0x1234, 0xFFFF_FFFFL), f.settings().get(0));
    }

    @Test
    void padLengthEqualToPayloadIsConnectionProtocolError() {
        assertConnectionError(PROTOCOL_ERROR, raw(0x0, FrameFlags.PADDED, 1, 3, 0, 0));
        assertConnectionError(PROTOCOL_ERROR, raw(0x1, FrameFlags.PADDED, 1, 3, 0, 0));
        assertConnectionError(PROTOCOL_ERROR, raw(0x5, FrameFlags.PADDED, 1, 1, 0, 0, 0, 2));
    }

    @Test
    void padLengthEatingThePriorityFieldsIsConnectionProtocolError() {
        assertConnectionError(PROTOCOL_ERROR,
                raw(0x1, FrameFlags.PADDED | FrameFlags.PRIORITY, 1, 2, 0, 0, 0, 0, 15, 0));
    }

    @Test
    void paddedFrameWithoutPadLengthOctetIsConnectionFrameSizeError() {
        assertConnectionError(FRAME_SIZE_ERROR, raw(0x0, FrameFlags.PADDED, 1));
    }

    @Test
    void maximumPaddingLeavingEmptyDataIsAccepted() throws IOException {
        DataFrame f = (DataFrame) read(raw(0x0, FrameFlags.PADDED, 1, 2, 0, 0));
        assertEquals(0, f.data().length);
        assertEquals(3, f.flowControlledLength());
    }

    @Test
    void headersTooShortForPriorityIsConnectionFrameSizeError() {
        assertConnectionError(FRAME_SIZE_ERROR, raw(0x1, FrameFlags.PRIORITY, 1, 0, 0, 0));
    }

    @Test
    void goAwayShorterThanEightOctetsIsConnectionFrameSizeError() {
        assertConnectionError(FRAME_SIZE_ERROR, raw(0x7, 0, 0, 0, 0, 0, 1));
    }

    @Test
    void pushPromiseWithoutPromisedIdIsConnectionFrameSizeError() {
        assertConnectionError(FRAME_SIZE_ERROR, raw(0x5, 0, 1, 0, 0));
    }

    @Test
    void reservedBitsAreIgnored() throws IOException {
        assertEquals(7, read(raw(0x0, 0, 0x8000_0007)).streamId());
        assertEquals(new WindowUpdateFrame(1, 10), read(raw(0x8, 0, 1, 0x80, 0, 0, 10)));
    }

    @Test
    void unknownFlagsAreIgnored() throws IOException {
        HeadersFrame h = (HeadersFrame) read(raw(0x1, 0xFF & ~(FrameFlags.PADDED | FrameFlags.PRIORITY), 1, 0x82));
        assertArrayEquals(new byte[] {(byte) 0x82}, h.fragment());
        assertEquals(true, h.endHeaders());
    }

    @Test
    void unknownFrameTypeIsReturnedForDiscardingWithoutChecks() throws IOException {
        Frame f = read(raw(0xEE, 0x3, 0, 1, 2, 3));
        assertInstanceOf(UnknownFrame.class, f);
        assertEquals(FrameType.UNKNOWN, f.type());
    }

    @Test
    void streamErrorLeavesReaderAtNextFrame() throws IOException {
        byte[] bad = raw(0x2, 0, 3, 0, 0, 0, 1);
        byte[] good = raw(0x6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9);
        byte[] wire = new byte[bad.length + good.length];
        System.arraycopy(bad, 0, wire, 0, bad.length);
        System.arraycopy(good, 0, wire, bad.length, good.length);
        FrameReader reader = new FrameReader(new ByteArrayInputStream(wire));
        assertThrows(Http2StreamException.class, reader::readFrame);
        assertEquals(new Frame.PingFrame(false, 9), reader.readFrame());
        assertNull(reader.readFrame());
    }

    @Test
    void streamEndingInsideAFrameIsEofNotCleanEnd() {
        byte[] wire = raw(0x6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9);
        assertThrows(EOFException.class, () -> read(java.util.Arrays.copyOf(wire, 12)));
        assertThrows(EOFException.class, () -> read(java.util.Arrays.copyOf(wire, 4)));
    }

    @Test
    void emptyStreamIsCleanEnd() throws IOException {
        assertNull(read(new byte[0]));
    }
}
