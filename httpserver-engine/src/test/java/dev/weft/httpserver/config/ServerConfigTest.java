package dev.weft.httpserver.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Defaults and validation of {@link ServerConfig}. */
class ServerConfigTest {

    @Test
    void defaultsAreTheDocumentedValues() {
        ServerConfig c = ServerConfig.defaults();

        assertAll(
                () -> assertEquals(8192, c.maxRequestLineLength()),
                () -> assertEquals(16384, c.maxHeaderSize()),
                () -> assertEquals(100, c.maxHeaderCount()),
                () -> assertEquals(Long.MAX_VALUE, c.maxRequestBodySize()),
                () -> assertEquals(4096, c.maxChunkLineLength()),
                () -> assertEquals(64 * 1024, c.maxDrainSize()),
                () -> assertEquals(Duration.ofSeconds(5), c.drainTimeout()),
                () -> assertEquals(10_000, c.maxConnections()),
                () -> assertEquals(Duration.ofSeconds(10), c.headerReadTimeout()),
                () -> assertEquals(Duration.ofSeconds(30), c.idleTimeout()),
                () -> assertEquals(Duration.ofSeconds(30), c.bodyReadTimeout()),
                () -> assertEquals(Duration.ofSeconds(30), c.writeTimeout()),
                () -> assertEquals(240, c.minRequestDataRate()),
                () -> assertEquals(240, c.minResponseDataRate()),
                () -> assertEquals(Duration.ofSeconds(5), c.dataRateGracePeriod()),
                () -> assertEquals(0.9, c.lowResourcesThreshold()),
                () -> assertEquals(Duration.ofSeconds(1), c.lowResourcesIdleTimeout()),
                () -> assertEquals(Duration.ofSeconds(10), c.tlsHandshakeTimeout()),
                () -> assertEquals(1024, c.backlog()),
                () -> assertEquals("Weft", c.serverHeader()),
                () -> assertNull(c.statsPath()),
                () -> assertFalse(c.accessLog().enabled()));
    }

    @Test
    void builderStartsFromTheDefaults() {
        assertEquals(ServerConfig.defaults(), ServerConfig.builder().build());
    }

    @Test
    void builderSetsEverySetting() {
        ServerConfig c = ServerConfig.builder()
                .maxRequestLineLength(1)
                .maxHeaderSize(2)
                .maxHeaderCount(3)
                .maxRequestBodySize(4)
                .maxChunkLineLength(5)
                .maxDrainSize(6)
                .drainTimeout(Duration.ofMillis(61))
                .maxConnections(7)
                .headerReadTimeout(Duration.ofMillis(8))
                .idleTimeout(Duration.ofMillis(9))
                .bodyReadTimeout(Duration.ofMillis(10))
                .writeTimeout(Duration.ofMillis(11))
                .minRequestDataRate(111)
                .minResponseDataRate(112)
                .dataRateGracePeriod(Duration.ofMillis(113))
                .lowResourcesThreshold(0.5)
                .lowResourcesIdleTimeout(Duration.ofMillis(114))
                .tlsHandshakeTimeout(Duration.ofMillis(12))
                .backlog(13)
                .serverHeader("S")
                .statsPath("/stats")
                .accessLog(true)
                .build();

        assertEquals(new ServerConfig(1, 2, 3, 4, 5, 6, Duration.ofMillis(61), 7, Duration.ofMillis(8),
                Duration.ofMillis(9), Duration.ofMillis(10), Duration.ofMillis(11), 111, 112, Duration.ofMillis(113),
                0.5, Duration.ofMillis(114), Duration.ofMillis(12), 13, "S", "/stats",
                AccessLogConfig.builder().enabled(true).build(),
                ThreadsConfig.defaults(), Http2Config.defaults(), WebSocketConfig.defaults(),
                ForwardedConfig.defaults()), c);
    }

    @Test
    void toBuilderKeepsEverySettingButTheChangedOne() {
        ServerConfig original = ServerConfig.builder().maxHeaderCount(7).statsPath("/s").accessLog(true).build();

        ServerConfig changed = original.toBuilder().backlog(5).build();

        assertEquals(5, changed.backlog());
        assertEquals(original, changed.toBuilder().backlog(original.backlog()).build());
    }

    @Test
    void toBuilderDoesNotChangeTheOriginal() {
        ServerConfig original = ServerConfig.defaults();

        original.toBuilder().backlog(5).build();

        assertEquals(1024, original.backlog());
    }

    /** A setting given an invalid value, and the name the error must mention. */
    static Stream<Arguments> invalidSettings() {
        return Stream.of(
                invalid("maxRequestLineLength", b -> b.maxRequestLineLength(0)),
                invalid("maxHeaderSize", b -> b.maxHeaderSize(-1)),
                invalid("maxHeaderCount", b -> b.maxHeaderCount(0)),
                invalid("maxRequestBodySize", b -> b.maxRequestBodySize(0)),
                invalid("maxChunkLineLength", b -> b.maxChunkLineLength(2)),
                invalid("maxDrainSize", b -> b.maxDrainSize(-1)),
                invalid("drainTimeout", b -> b.drainTimeout(Duration.ZERO)),
                invalid("minRequestDataRate", b -> b.minRequestDataRate(-1)),
                invalid("minResponseDataRate", b -> b.minResponseDataRate(-1)),
                invalid("dataRateGracePeriod", b -> b.dataRateGracePeriod(Duration.ZERO)),
                invalid("lowResourcesThreshold", b -> b.lowResourcesThreshold(0)),
                invalid("lowResourcesThreshold", b -> b.lowResourcesThreshold(1.5)),
                invalid("lowResourcesThreshold", b -> b.lowResourcesThreshold(Double.NaN)),
                invalid("lowResourcesIdleTimeout", b -> b.lowResourcesIdleTimeout(Duration.ZERO)),
                invalid("maxConnections", b -> b.maxConnections(0)),
                invalid("headerReadTimeout", b -> b.headerReadTimeout(Duration.ZERO)),
                invalid("idleTimeout", b -> b.idleTimeout(Duration.ofMillis(-1))),
                invalid("bodyReadTimeout", b -> b.bodyReadTimeout(Duration.ZERO)),
                invalid("writeTimeout", b -> b.writeTimeout(Duration.ofSeconds(-5))),
                invalid("tlsHandshakeTimeout", b -> b.tlsHandshakeTimeout(Duration.ZERO)),
                invalid("idleTimeout", b -> b.idleTimeout(Duration.ofDays(30))),
                invalid("backlog", b -> b.backlog(0)),
                invalid("serverHeader", b -> b.serverHeader("Weft\r\nX-Injected: 1")),
                invalid("serverHeader", b -> b.serverHeader("tab\u0000nul")),
                invalid("serverHeader", b -> b.serverHeader("snow\u2603man")),
                invalid("statsPath", b -> b.statsPath("stats")),
                invalid("statsPath", b -> b.statsPath("/stats\n")));
    }

    private static Arguments invalid(String name, UnaryOperator<ServerConfig.Builder> change) {
        return Arguments.of(name, change);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidSettings")
    void invalidValueIsRejectedNamingTheSetting(String name, UnaryOperator<ServerConfig.Builder> change) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> change.apply(ServerConfig.builder()).build());

        assertTrue(e.getMessage().contains(name), () -> "message should name " + name + ": " + e.getMessage());
    }

    @Test
    void nullDurationIsRejectedNamingTheSetting() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> ServerConfig.builder().bodyReadTimeout(null).build());

        assertTrue(e.getMessage().contains("bodyReadTimeout"), e.getMessage());
    }

    @Test
    void smallestValidValuesAreAccepted() {
        ServerConfig c = ServerConfig.builder()
                .maxRequestLineLength(1)
                .maxHeaderSize(1)
                .maxHeaderCount(1)
                .maxRequestBodySize(1)
                .maxChunkLineLength(3)
                .maxDrainSize(0)
                .maxConnections(1)
                .headerReadTimeout(Duration.ofMillis(1))
                .backlog(1)
                .build();

        assertEquals(3, c.maxChunkLineLength());
        assertEquals(0, c.maxDrainSize());
    }

    @Test
    void longestTimeoutThatFitsIntMillisIsAccepted() {
        Duration max = Duration.ofMillis(Integer.MAX_VALUE);

        assertEquals(max, ServerConfig.builder().idleTimeout(max).build().idleTimeout());
    }

    @Test
    void timeoutOneMillisecondOverIntMillisIsRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.builder().idleTimeout(Duration.ofMillis(Integer.MAX_VALUE + 1L)).build());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Weft/1.0 (Linux)", "tab\there", "caf\u00e9"})
    void serverHeaderOfFieldValueCharactersIsAccepted(String value) {
        assertEquals(value, ServerConfig.builder().serverHeader(value).build().serverHeader());
    }

    @Test
    void serverHeaderMayBeTurnedOff() {
        assertNull(ServerConfig.builder().serverHeader(null).build().serverHeader());
    }

    @Test
    void absoluteStatsPathIsAccepted() {
        assertEquals("/_weft/stats", ServerConfig.builder().statsPath("/_weft/stats").build().statsPath());
    }

    @org.junit.jupiter.api.Test
    void subMillisecondTimeoutIsRejectedBecauseItWouldActAsZero() {
        var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ServerConfig.builder().bodyReadTimeout(java.time.Duration.ofNanos(500_000)).build());
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("bodyReadTimeout"), e.getMessage());
    }
}
