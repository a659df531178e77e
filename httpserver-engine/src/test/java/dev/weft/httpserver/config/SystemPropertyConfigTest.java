package dev.weft.httpserver.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code weft.httpserver.*} properties read into a {@link ServerConfig}. */
class SystemPropertyConfigTest {

    private static Properties props(String... nameValuePairs) {
        Properties p = new Properties();
        for (int i = 0; i < nameValuePairs.length; i += 2) {
            p.setProperty(SystemPropertyConfig.PREFIX + nameValuePairs[i], nameValuePairs[i + 1]);
        }
        return p;
    }

    @Test
    void prefixIsWeftHttpserver() {
        assertEquals("weft.httpserver.", SystemPropertyConfig.PREFIX);
    }

    @Test
    void noPropertiesGiveTheDefaults() {
        assertEquals(ServerConfig.defaults(), SystemPropertyConfig.from(new Properties()));
    }

    @Test
    void propertiesWithoutThePrefixAreIgnored() {
        Properties p = new Properties();
        p.setProperty("maxHeaderCount", "7");
        p.setProperty("weft.maxHeaderCount", "7");

        assertEquals(ServerConfig.defaults(), SystemPropertyConfig.from(p));
    }

    @Test
    void everyNumericSettingIsRead() {
        ServerConfig c = SystemPropertyConfig.from(props(
                "maxRequestLineLength", "1001",
                "maxHeaderSize", "1002",
                "maxHeaderCount", "1003",
                "maxRequestBodySize", "10000000000",
                "maxChunkLineLength", "1005",
                "maxDrainSize", "1006",
                "maxConnections", "1007",
                "backlog", "1008",
                "minRequestDataRate", "1009",
                "minResponseDataRate", "1010",
                "lowResourcesThreshold", "0.75"));

        assertAll(
                () -> assertEquals(1001, c.maxRequestLineLength()),
                () -> assertEquals(1002, c.maxHeaderSize()),
                () -> assertEquals(1003, c.maxHeaderCount()),
                () -> assertEquals(10_000_000_000L, c.maxRequestBodySize()),
                () -> assertEquals(1005, c.maxChunkLineLength()),
                () -> assertEquals(1006, c.maxDrainSize()),
                () -> assertEquals(1007, c.maxConnections()),
                () -> assertEquals(1008, c.backlog()),
                () -> assertEquals(1009, c.minRequestDataRate()),
                () -> assertEquals(1010, c.minResponseDataRate()),
                () -> assertEquals(0.75, c.lowResourcesThreshold()));
    }

    @Test
    void everyDurationSettingIsRead() {
        ServerConfig c = SystemPropertyConfig.from(props(
                "headerReadTimeout", "1500",
                "idleTimeout", "PT45S",
                "bodyReadTimeout", "PT1M30S",
                "writeTimeout", "250",
                "drainTimeout", "PT3S",
                "dataRateGracePeriod", "2500",
                "lowResourcesIdleTimeout", "PT0.2S",
                "tlsHandshakeTimeout", "PT0.5S"));

        assertAll(
                () -> assertEquals(Duration.ofMillis(1500), c.headerReadTimeout()),
                () -> assertEquals(Duration.ofSeconds(45), c.idleTimeout()),
                () -> assertEquals(Duration.ofSeconds(90), c.bodyReadTimeout()),
                () -> assertEquals(Duration.ofMillis(250), c.writeTimeout()),
                () -> assertEquals(Duration.ofSeconds(3), c.drainTimeout()),
                () -> assertEquals(Duration.ofMillis(2500), c.dataRateGracePeriod()),
                () -> assertEquals(Duration.ofMillis(200), c.lowResourcesIdleTimeout()),
                () -> assertEquals(Duration.ofMillis(500), c.tlsHandshakeTimeout()));
    }

    @ParameterizedTest
    @CsvSource({"2000, 2000", "PT2S, 2000", "pt2s, 2000", "PT0.25S, 250", "P1D, 86400000", "' 300 ', 300"})
    void durationIsMillisecondsOrIso8601(String value, long expectedMillis) {
        ServerConfig c = SystemPropertyConfig.from(props("idleTimeout", value));

        assertEquals(Duration.ofMillis(expectedMillis), c.idleTimeout());
    }

    @Test
    void serverHeaderIsRead() {
        assertEquals("Custom/2", SystemPropertyConfig.from(props("serverHeader", "Custom/2")).serverHeader());
    }

    @Test
    void emptyServerHeaderTurnsItOff() {
        assertNull(SystemPropertyConfig.from(props("serverHeader", "")).serverHeader());
    }

    @Test
    void statsPathIsRead() {
        assertEquals("/stats", SystemPropertyConfig.from(props("statsPath", "/stats")).statsPath());
    }

    @Test
    void emptyStatsPathLeavesItOff() {
        assertNull(SystemPropertyConfig.from(props("statsPath", "")).statsPath());
    }

    @ParameterizedTest
    @CsvSource({"true, true", "TRUE, true", "false, false", "False, false"})
    void accessLogIsABoolean(String value, boolean expected) {
        assertEquals(expected, SystemPropertyConfig.from(props("accessLog.enabled", value)).accessLog().enabled());
    }

    @ParameterizedTest
    @CsvSource({
            "maxHeaderCount, many",
            "maxHeaderCount, 1.5",
            "maxRequestLineLength, 99999999999",
            "maxRequestBodySize, 64M",
            "idleTimeout, 30s",
            "idleTimeout, PT",
            "headerReadTimeout, ten",
            "accessLog.enabled, yes",
            "accessLog.enabled, 1",
            "backlog, ''",
    })
    void malformedValueIsRejectedNamingTheProperty(String name, String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SystemPropertyConfig.from(props(name, value)));

        assertTrue(e.getMessage().contains("weft.httpserver." + name),
                () -> "message should name weft.httpserver." + name + ": " + e.getMessage());
    }

    @ParameterizedTest
    @CsvSource({
            "maxHeaderCount, 0",
            "maxDrainSize, -1",
            "maxChunkLineLength, 2",
            "idleTimeout, 0",
            "writeTimeout, PT-1S",
            "statsPath, stats",
    })
    void outOfRangeValueIsRejectedNamingTheSetting(String name, String value) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SystemPropertyConfig.from(props(name, value)));

        assertTrue(e.getMessage().contains(name), () -> "message should name " + name + ": " + e.getMessage());
        assertTrue(e.getMessage().contains("weft.httpserver."), e::getMessage);
    }

    @Test
    void fromSystemPropertiesReadsTheJvmProperties() {
        String name = SystemPropertyConfig.PREFIX + "maxHeaderCount";
        String old = System.getProperty(name);
        System.setProperty(name, "42");
        try {
            assertEquals(42, SystemPropertyConfig.fromSystemProperties().maxHeaderCount());
        } finally {
            if (old == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, old);
            }
        }
    }

    @Test
    void unsetSettingsKeepTheirDefaults() {
        ServerConfig c = SystemPropertyConfig.from(props("backlog", "5"));

        assertEquals(ServerConfig.defaults().toBuilder().backlog(5).build(), c);
        assertFalse(c.accessLog().enabled());
    }

    @Test
    void http2SettingsAreReadUnderHttp2Prefix() {
        Properties p = new Properties();
        p.setProperty("weft.httpserver.http2.enabled", "false");
        p.setProperty("weft.httpserver.http2.h2c", "false");
        p.setProperty("weft.httpserver.http2.maxConcurrentStreams", "7");
        p.setProperty("weft.httpserver.http2.initialWindowSize", "70000");
        p.setProperty("weft.httpserver.http2.connectionWindowSize", "80000");
        p.setProperty("weft.httpserver.http2.maxFrameSize", "32768");
        p.setProperty("weft.httpserver.http2.maxHeaderListSize", "9000");
        p.setProperty("weft.httpserver.http2.headerTableSize", "1024");
        p.setProperty("weft.httpserver.http2.maxResetsPerSecond", "11");
        p.setProperty("weft.httpserver.http2.maxControlFramesPerSecond", "12");
        p.setProperty("weft.httpserver.http2.extendedConnect", "false");
        Http2Config h2 = SystemPropertyConfig.from(p).http2();
        assertEquals(new Http2Config(false, false, 7, 70000, 80000, 32768, 9000, 1024, 11, 12, false), h2);
    }

    @Test
    void anInvalidHttp2SettingNamesTheProperty() {
        Properties p = new Properties();
        p.setProperty("weft.httpserver.http2.maxFrameSize", "1000");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SystemPropertyConfig.from(p));
        assertTrue(e.getMessage().contains("maxFrameSize"), e.getMessage());
    }
}
