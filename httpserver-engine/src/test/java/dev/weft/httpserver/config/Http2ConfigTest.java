package dev.weft.httpserver.config;

import org.junit.jupiter.api.Test;

import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class Http2ConfigTest {

    @Test
    void defaultsAreTheDocumentedOnes() {
        Http2Config d = Http2Config.defaults();
        assertTrue(d.h2Enabled() && d.h2cEnabled());
        assertEquals(128, d.maxConcurrentStreams());
        assertEquals(128 * 1024, d.initialWindowSize());
        assertEquals(1024 * 1024, d.connectionWindowSize());
        assertEquals(16_384, d.maxFrameSize());
        assertEquals(16 * 1024, d.maxHeaderListSize());
        assertEquals(4096, d.headerTableSize());
        assertEquals(100, d.maxResetsPerSecond());
        assertEquals(200, d.maxControlFramesPerSecond());
        assertTrue(d.extendedConnect());
        assertEquals(d, ServerConfig.defaults().http2());
        assertEquals(d, d.toBuilder().build());
    }

    @Test
    void extendedConnectSwitchSurvivesToBuilder() {
        Http2Config off = Http2Config.builder().extendedConnect(false).build();
        assertFalse(off.extendedConnect());
        assertEquals(off, off.toBuilder().build());
    }

    @Test
    void outOfRangeValuesAreRejectedNamingTheSetting() {
        assertRejected("maxConcurrentStreams", b -> b.maxConcurrentStreams(0));
        assertRejected("initialWindowSize", b -> b.initialWindowSize(0));
        assertRejected("connectionWindowSize", b -> b.connectionWindowSize(65_534));
        assertRejected("maxFrameSize", b -> b.maxFrameSize(16_383));
        assertRejected("maxFrameSize", b -> b.maxFrameSize(16_777_216));
        assertRejected("maxHeaderListSize", b -> b.maxHeaderListSize(0));
        assertRejected("headerTableSize", b -> b.headerTableSize(-1));
        assertRejected("maxResetsPerSecond", b -> b.maxResetsPerSecond(0));
        assertRejected("maxControlFramesPerSecond", b -> b.maxControlFramesPerSecond(0));
    }

    private static void assertRejected(String name, UnaryOperator<Http2Config.Builder> change) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> change.apply(Http2Config.builder()).build());
        assertTrue(e.getMessage().startsWith(name), e.getMessage());
    }
}
