package dev.weft.httpserver.config;

import java.time.Duration;
import java.util.Properties;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Reads a {@link ServerConfig} from {@code weft.httpserver.*} system properties: the fallback for servers
 * created through the plain JDK API, where no configuration object can be passed.
 *
 * <p>Names: {@code maxRequestLineLength}, {@code maxHeaderSize}, {@code maxHeaderCount},
 * {@code maxRequestBodySize}, {@code maxChunkLineLength}, {@code maxDrainSize}, {@code maxConnections},
 * {@code minRequestDataRate}, {@code minResponseDataRate}, {@code lowResourcesThreshold},
 * {@code backlog} (numbers); {@code headerReadTimeout}, {@code idleTimeout}, {@code bodyReadTimeout},
 * {@code writeTimeout}, {@code drainTimeout}, {@code dataRateGracePeriod}, {@code lowResourcesIdleTimeout},
 * {@code tlsHandshakeTimeout} (milliseconds, or an ISO-8601 duration such as
 * {@code PT15S}); {@code serverHeader} (empty for none), {@code statsPath}, {@code accessLog}
 * ({@code true}/{@code false}); and for HTTP/2 {@code http2.enabled}, {@code http2.h2c},
 * {@code http2.extendedConnect} (booleans),
 * {@code http2.maxConcurrentStreams}, {@code http2.initialWindowSize}, {@code http2.connectionWindowSize},
 * {@code http2.maxFrameSize}, {@code http2.maxHeaderListSize}, {@code http2.headerTableSize},
 * {@code http2.maxResetsPerSecond}, {@code http2.maxControlFramesPerSecond} (numbers); for WebSocket
 * {@code websocket.maxMessageSize}, {@code websocket.maxFrameSize}, {@code websocket.compressionMinSize},
 * {@code websocket.maxQueuedBytes} (numbers), {@code websocket.compression} (boolean),
 * {@code websocket.idleTimeout}, {@code websocket.pingInterval}, {@code websocket.closeTimeout} (durations); each prefixed with
 * {@code weft.httpserver.}.
 */
public final class SystemPropertyConfig {

    /** Prefix of every property name. */
    public static final String PREFIX = "weft.httpserver.";

    private SystemPropertyConfig() {
    }

    /** The configuration from {@link System#getProperties()}. */
    public static ServerConfig fromSystemProperties() {
        return from(System.getProperties());
    }

    /**
     * The configuration from the given properties, defaults for those not set.
     *
     * @throws IllegalArgumentException naming the property when a value is malformed or out of range
     */
    public static ServerConfig from(Properties p) {
        ServerConfig.Builder b = ServerConfig.builder();
        read(p, "maxRequestLineLength", Integer::parseInt, b::maxRequestLineLength);
        read(p, "maxHeaderSize", Integer::parseInt, b::maxHeaderSize);
        read(p, "maxHeaderCount", Integer::parseInt, b::maxHeaderCount);
        read(p, "maxRequestBodySize", Long::parseLong, b::maxRequestBodySize);
        read(p, "maxChunkLineLength", Integer::parseInt, b::maxChunkLineLength);
        read(p, "maxDrainSize", Long::parseLong, b::maxDrainSize);
        read(p, "drainTimeout", SystemPropertyConfig::duration, b::drainTimeout);
        read(p, "maxConnections", Integer::parseInt, b::maxConnections);
        read(p, "backlog", Integer::parseInt, b::backlog);
        read(p, "headerReadTimeout", SystemPropertyConfig::duration, b::headerReadTimeout);
        read(p, "idleTimeout", SystemPropertyConfig::duration, b::idleTimeout);
        read(p, "bodyReadTimeout", SystemPropertyConfig::duration, b::bodyReadTimeout);
        read(p, "writeTimeout", SystemPropertyConfig::duration, b::writeTimeout);
        read(p, "minRequestDataRate", Long::parseLong, b::minRequestDataRate);
        read(p, "minResponseDataRate", Long::parseLong, b::minResponseDataRate);
        read(p, "dataRateGracePeriod", SystemPropertyConfig::duration, b::dataRateGracePeriod);
        read(p, "lowResourcesThreshold", Double::parseDouble, b::lowResourcesThreshold);
        read(p, "lowResourcesIdleTimeout", SystemPropertyConfig::duration, b::lowResourcesIdleTimeout);
        read(p, "tlsHandshakeTimeout", SystemPropertyConfig::duration, b::tlsHandshakeTimeout);
        read(p, "serverHeader", v -> v.isEmpty() ? null : v, b::serverHeader);
        read(p, "statsPath", v -> v.isEmpty() ? null : v, b::statsPath);
        read(p, "accessLog", SystemPropertyConfig::bool, b::accessLog);
        Http2Config.Builder h2 = Http2Config.builder();
        read(p, "http2.enabled", SystemPropertyConfig::bool, h2::h2Enabled);
        read(p, "http2.h2c", SystemPropertyConfig::bool, h2::h2cEnabled);
        read(p, "http2.extendedConnect", SystemPropertyConfig::bool, h2::extendedConnect);
        read(p, "http2.maxConcurrentStreams", Integer::parseInt, h2::maxConcurrentStreams);
        read(p, "http2.initialWindowSize", Integer::parseInt, h2::initialWindowSize);
        read(p, "http2.connectionWindowSize", Integer::parseInt, h2::connectionWindowSize);
        read(p, "http2.maxFrameSize", Integer::parseInt, h2::maxFrameSize);
        read(p, "http2.maxHeaderListSize", Integer::parseInt, h2::maxHeaderListSize);
        read(p, "http2.headerTableSize", Integer::parseInt, h2::headerTableSize);
        read(p, "http2.maxResetsPerSecond", Integer::parseInt, h2::maxResetsPerSecond);
        read(p, "http2.maxControlFramesPerSecond", Integer::parseInt, h2::maxControlFramesPerSecond);
        WebSocketConfig.Builder ws = WebSocketConfig.builder();
        read(p, "websocket.maxMessageSize", Integer::parseInt, ws::maxMessageSize);
        read(p, "websocket.maxFrameSize", Integer::parseInt, ws::maxFrameSize);
        read(p, "websocket.compression", SystemPropertyConfig::bool, ws::compression);
        read(p, "websocket.compressionMinSize", Integer::parseInt, ws::compressionMinSize);
        read(p, "websocket.idleTimeout", SystemPropertyConfig::duration, ws::idleTimeout);
        read(p, "websocket.pingInterval", SystemPropertyConfig::duration, ws::pingInterval);
        read(p, "websocket.closeTimeout", SystemPropertyConfig::duration, ws::closeTimeout);
        read(p, "websocket.maxQueuedBytes", Long::parseLong, ws::maxQueuedBytes);
        try {
            return b.http2(h2.build()).webSocket(ws.build()).build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid " + PREFIX + "* system property: " + e.getMessage(), e);
        }
    }

    private static <T> void read(Properties p, String name, Function<String, T> parse, Consumer<T> set) {
        String raw = p.getProperty(PREFIX + name);
        if (raw == null) {
            return;
        }
        try {
            set.accept(parse.apply(raw.trim()));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("invalid value for " + PREFIX + name + ": '" + raw + "'", e);
        }
    }

    private static Duration duration(String v) {
        return v.startsWith("P") || v.startsWith("p") ? Duration.parse(v) : Duration.ofMillis(Long.parseLong(v));
    }

    private static boolean bool(String v) {
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("expected true or false");
    }
}
