package dev.weft.httpserver.http2;

import dev.weft.httpserver.http2.Http2Settings.Setting;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static dev.weft.httpserver.http2.Http2Settings.DEFAULTS;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Http2SettingsTest {

    @Test
    void defaultsAreTheRfcInitialValues() {
        assertEquals(4096, DEFAULTS.headerTableSize());
        assertTrue(DEFAULTS.enablePush());
        assertEquals(Http2Settings.UNLIMITED, DEFAULTS.maxConcurrentStreams());
        assertEquals(65_535, DEFAULTS.initialWindowSize());
        assertEquals(16_384, DEFAULTS.maxFrameSize());
        assertEquals(Http2Settings.UNLIMITED, DEFAULTS.maxHeaderListSize());
        assertFalse(DEFAULTS.enableConnectProtocol());
    }

    @ParameterizedTest
    @ValueSource(longs = {2, 3, 0xFFFF_FFFFL})
    void enablePushOtherThanZeroOrOneIsProtocolError(long value) {
        var e = assertThrows(Http2ConnectionException.class, () -> DEFAULTS.with(Http2Settings.ENABLE_PUSH, value));
        assertEquals(ErrorCode.PROTOCOL_ERROR, e.errorCode());
    }

    @ParameterizedTest
    @ValueSource(longs = {2, 0xFFFF_FFFFL})
    void enableConnectProtocolOtherThanZeroOrOneIsProtocolError(long value) {
        var e = assertThrows(Http2ConnectionException.class,
                () -> DEFAULTS.with(Http2Settings.ENABLE_CONNECT_PROTOCOL, value));
        assertEquals(ErrorCode.PROTOCOL_ERROR, e.errorCode());
    }

    @ParameterizedTest
    @ValueSource(longs = {0x8000_0000L, 0xFFFF_FFFFL})
    void initialWindowSizeAboveMaximumIsFlowControlError(long value) {
        var e = assertThrows(Http2ConnectionException.class,
                () -> DEFAULTS.with(Http2Settings.INITIAL_WINDOW_SIZE, value));
        assertEquals(ErrorCode.FLOW_CONTROL_ERROR, e.errorCode());
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 16_383, 16_777_216, 0xFFFF_FFFFL})
    void maxFrameSizeOutsideRangeIsProtocolError(long value) {
        var e = assertThrows(Http2ConnectionException.class, () -> DEFAULTS.with(Http2Settings.MAX_FRAME_SIZE, value));
        assertEquals(ErrorCode.PROTOCOL_ERROR, e.errorCode());
    }

    @Test
    void boundaryValuesAreAccepted() throws Http2Exception {
        assertEquals(16_384, DEFAULTS.with(Http2Settings.MAX_FRAME_SIZE, 16_384).maxFrameSize());
        assertEquals(16_777_215, DEFAULTS.with(Http2Settings.MAX_FRAME_SIZE, 16_777_215).maxFrameSize());
        assertEquals(Integer.MAX_VALUE, DEFAULTS.with(Http2Settings.INITIAL_WINDOW_SIZE, Integer.MAX_VALUE).initialWindowSize());
        assertEquals(0, DEFAULTS.with(Http2Settings.INITIAL_WINDOW_SIZE, 0).initialWindowSize());
        assertFalse(DEFAULTS.with(Http2Settings.ENABLE_PUSH, 0).enablePush());
        assertTrue(DEFAULTS.with(Http2Settings.ENABLE_CONNECT_PROTOCOL, 1).enableConnectProtocol());
        assertEquals(0xFFFF_FFFFL, DEFAULTS.with(Http2Settings.HEADER_TABLE_SIZE, 0xFFFF_FFFFL).headerTableSize());
    }

    @Test
    void unknownIdentifiersAreIgnored() throws Http2Exception {
        assertSame(DEFAULTS, DEFAULTS.with(0x7, 12345));
        assertSame(DEFAULTS, DEFAULTS.with(0xFFFF, 0xFFFF_FFFFL));
        assertDoesNotThrow(() -> Http2Settings.validate(0x99, 0xFFFF_FFFFL));
    }

    @Test
    void applyingAFrameUsesEntriesInOrderAndLeavesOriginalUnchanged() throws Http2Exception {
        Http2Settings s = DEFAULTS.apply(List.of(
                new Setting(Http2Settings.MAX_CONCURRENT_STREAMS, 100),
                new Setting(Http2Settings.INITIAL_WINDOW_SIZE, 1000),
                new Setting(Http2Settings.INITIAL_WINDOW_SIZE, 2000),
                new Setting(Http2Settings.MAX_HEADER_LIST_SIZE, 8192)));
        assertEquals(100, s.maxConcurrentStreams());
        assertEquals(2000, s.initialWindowSize());
        assertEquals(8192, s.maxHeaderListSize());
        assertEquals(65_535, DEFAULTS.initialWindowSize());
    }

    @Test
    void applyingAFrameWithOneInvalidEntryFails() {
        assertThrows(Http2ConnectionException.class, () -> DEFAULTS.apply(List.of(
                new Setting(Http2Settings.MAX_CONCURRENT_STREAMS, 100),
                new Setting(Http2Settings.MAX_FRAME_SIZE, 1))));
    }

    @Test
    void differencesFromDefaultsRoundTripThroughApply() throws Http2Exception {
        Http2Settings ours = DEFAULTS.apply(List.of(new Setting(Http2Settings.ENABLE_PUSH, 0),
                new Setting(Http2Settings.MAX_CONCURRENT_STREAMS, 250),
                new Setting(Http2Settings.MAX_FRAME_SIZE, 65_536),
                new Setting(Http2Settings.ENABLE_CONNECT_PROTOCOL, 1)));
        List<Setting> diff = ours.differencesFrom(DEFAULTS);
        assertEquals(4, diff.size());
        assertEquals(ours, DEFAULTS.apply(diff));
        assertTrue(DEFAULTS.differencesFrom(DEFAULTS).isEmpty());
    }

    @Test
    void settingRejectsValuesWiderThan32Bits() {
        assertThrows(IllegalArgumentException.class, () -> new Setting(1, 0x1_0000_0000L));
        assertThrows(IllegalArgumentException.class, () -> new Setting(0x10000, 1));
    }
}
