package dev.weft.httpserver.config;

import static dev.weft.httpserver.config.Bounds.addressList;
import static dev.weft.httpserver.config.Bounds.any;
import static dev.weft.httpserver.config.Bounds.atLeast;
import static dev.weft.httpserver.config.Bounds.between;
import static dev.weft.httpserver.config.Bounds.fraction;
import static dev.weft.httpserver.config.Bounds.notNegativeDuration;
import static dev.weft.httpserver.config.Bounds.positiveDuration;
import static dev.weft.httpserver.config.Bounds.timeout;
import static dev.weft.httpserver.config.Setting.Group.ACCESS_LOG;
import static dev.weft.httpserver.config.Setting.Group.FORWARDED;
import static dev.weft.httpserver.config.Setting.Group.HTTP2;
import static dev.weft.httpserver.config.Setting.Group.SERVER;
import static dev.weft.httpserver.config.Setting.Group.THREADS;
import static dev.weft.httpserver.config.Setting.Group.WEBSOCKET;
import static dev.weft.httpserver.config.Setting.Kind.COUNT;
import static dev.weft.httpserver.config.Setting.Kind.DURATION;
import static dev.weft.httpserver.config.Setting.Kind.RATE;
import static dev.weft.httpserver.config.Setting.Kind.SIZE;
import static dev.weft.httpserver.config.Setting.Kind.SWITCH;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The catalog of every engine setting, each declared once: name, kind, default, bounds and a one-line
 * description. {@link ServerConfig}, {@link AccessLogConfig}, {@link Http2Config} and {@link WebSocketConfig} take their defaults and
 * validation from here; {@link SystemPropertyConfig} reads exactly these; the Spring Boot properties and the
 * configuration reference are checked against {@link #all()}.
 */
public final class Settings {

    private static final List<Setting<?>> ALL = new ArrayList<>();

    // ServerConfig

    /** Longest request line. */
    public static final Setting<Integer> MAX_REQUEST_LINE_LENGTH = server("maxRequestLineLength", SIZE,
            Integer.class, 8 * 1024, atLeast(1), "longest request line; longer gets 414",
            ServerConfig::maxRequestLineLength, ServerConfig.Builder::maxRequestLineLength);
    /** Largest header section, and trailer section. */
    public static final Setting<Integer> MAX_HEADER_SIZE = server("maxHeaderSize", SIZE, Integer.class,
            16 * 1024, atLeast(1), "largest header (or trailer) section; larger gets 431",
            ServerConfig::maxHeaderSize, ServerConfig.Builder::maxHeaderSize);
    /** Most header fields in one request. */
    public static final Setting<Integer> MAX_HEADER_COUNT = server("maxHeaderCount", COUNT, Integer.class, 100,
            atLeast(1), "most header (or trailer) fields of a request; more gets 431",
            ServerConfig::maxHeaderCount, ServerConfig.Builder::maxHeaderCount);
    /** Largest request body. */
    public static final Setting<Long> MAX_REQUEST_BODY_SIZE = server("maxRequestBodySize", SIZE, Long.class,
            Long.MAX_VALUE, atLeast(1), "largest request body, declared or chunked; larger gets 413",
            ServerConfig::maxRequestBodySize, ServerConfig.Builder::maxRequestBodySize);
    /** Longest chunk-size line. */
    public static final Setting<Integer> MAX_CHUNK_LINE_LENGTH = server("maxChunkLineLength", SIZE,
            Integer.class, 4 * 1024, atLeast(3), "longest chunk-size line with its extensions; longer gets 400",
            ServerConfig::maxChunkLineLength, ServerConfig.Builder::maxChunkLineLength);
    /** Most of an unread body discarded to keep a connection. */
    public static final Setting<Long> MAX_DRAIN_SIZE = server("maxDrainSize", SIZE, Long.class, 64L * 1024,
            atLeast(0), "most of an unread request body discarded to keep the connection; beyond it, closed",
            ServerConfig::maxDrainSize, ServerConfig.Builder::maxDrainSize);
    /** Longest time discarding an unread body may take. */
    public static final Setting<Duration> DRAIN_TIMEOUT = server("drainTimeout", DURATION, Duration.class,
            Duration.ofSeconds(5), timeout(), "longest time discarding an unread request body may take",
            ServerConfig::drainTimeout, ServerConfig.Builder::drainTimeout);
    /** Most open connections. */
    public static final Setting<Integer> MAX_CONNECTIONS = server("maxConnections", COUNT, Integer.class, 10_000,
            atLeast(1), "most open connections; more get 503 (TLS: closed)",
            ServerConfig::maxConnections, ServerConfig.Builder::maxConnections);
    /** Time from a request's first byte to the end of its header section. */
    public static final Setting<Duration> HEADER_READ_TIMEOUT = server("headerReadTimeout", DURATION,
            Duration.class, Duration.ofSeconds(10), timeout(),
            "time from a request's first byte to the end of its header section; slower gets 408",
            ServerConfig::headerReadTimeout, ServerConfig.Builder::headerReadTimeout);
    /** How long an idle keep-alive connection waits. */
    public static final Setting<Duration> IDLE_TIMEOUT = server("idleTimeout", DURATION, Duration.class,
            Duration.ofSeconds(30), timeout(), "how long an idle keep-alive connection waits for the next request",
            ServerConfig::idleTimeout, ServerConfig.Builder::idleTimeout);
    /** Longest wait for the next bytes of a request body. */
    public static final Setting<Duration> BODY_READ_TIMEOUT = server("bodyReadTimeout", DURATION, Duration.class,
            Duration.ofSeconds(30), timeout(), "longest wait for the next bytes of a request body",
            ServerConfig::bodyReadTimeout, ServerConfig.Builder::bodyReadTimeout);
    /** Longest time one write may block. */
    public static final Setting<Duration> WRITE_TIMEOUT = server("writeTimeout", DURATION, Duration.class,
            Duration.ofSeconds(30), timeout(), "longest time one write to a client may block",
            ServerConfig::writeTimeout, ServerConfig.Builder::writeTimeout);
    /** Slowest request body. */
    public static final Setting<Long> MIN_REQUEST_DATA_RATE = server("minRequestDataRate", RATE, Long.class, 240L,
            atLeast(0), "slowest a request body may arrive after the grace period; slower gets 408",
            ServerConfig::minRequestDataRate, ServerConfig.Builder::minRequestDataRate);
    /** Slowest response. */
    public static final Setting<Long> MIN_RESPONSE_DATA_RATE = server("minResponseDataRate", RATE, Long.class,
            240L, atLeast(0), "slowest a client may take a response after the grace period; slower is closed",
            ServerConfig::minResponseDataRate, ServerConfig.Builder::minResponseDataRate);
    /** How long a transfer may be slower than its minimum rate. */
    public static final Setting<Duration> DATA_RATE_GRACE_PERIOD = server("dataRateGracePeriod", DURATION,
            Duration.class, Duration.ofSeconds(5), timeout(),
            "how long a body or response may move below its minimum rate before the rate is enforced",
            ServerConfig::dataRateGracePeriod, ServerConfig.Builder::dataRateGracePeriod);
    /** Share of maxConnections above which the server is short of connections. */
    public static final Setting<Double> LOW_RESOURCES_THRESHOLD = server("lowResourcesThreshold",
            Setting.Kind.FRACTION, Double.class, 0.9, fraction(),
            "share of maxConnections above which idle and stalled connections make room for new ones",
            ServerConfig::lowResourcesThreshold, ServerConfig.Builder::lowResourcesThreshold);
    /** Idle (or stalled) time allowed while short of connections. */
    public static final Setting<Duration> LOW_RESOURCES_IDLE_TIMEOUT = server("lowResourcesIdleTimeout", DURATION,
            Duration.class, Duration.ofSeconds(1), timeout(),
            "how long connections may be idle or stalled while short of connections",
            ServerConfig::lowResourcesIdleTimeout, ServerConfig.Builder::lowResourcesIdleTimeout);
    /** Time allowed for a TLS handshake. */
    public static final Setting<Duration> TLS_HANDSHAKE_TIMEOUT = server("tlsHandshakeTimeout", DURATION,
            Duration.class, Duration.ofSeconds(10), timeout(), "time allowed for a TLS handshake",
            ServerConfig::tlsHandshakeTimeout, ServerConfig.Builder::tlsHandshakeTimeout);
    /** Listen backlog. */
    public static final Setting<Integer> BACKLOG = server("backlog", COUNT, Integer.class, 1024, atLeast(1),
            "listen backlog when bind is given 0 or less", ServerConfig::backlog, ServerConfig.Builder::backlog);
    /** The Server response header. */
    public static final Setting<String> SERVER_HEADER = server("serverHeader", Setting.Kind.TEXT, String.class,
            "Weft", any(), "value of the Server response header; none for no header",
            ServerConfig::serverHeader, ServerConfig.Builder::serverHeader);
    /** Path of the statistics page. */
    public static final Setting<String> STATS_PATH = server("statsPath", Setting.Kind.TEXT, String.class, null,
            any(), "path of the opt-in statistics page; none for no page",
            ServerConfig::statsPath, ServerConfig.Builder::statsPath);

    // AccessLogConfig

    /** The access log on or off. */
    public static final Setting<Boolean> ACCESS_LOG_ENABLED = accessLog("enabled", SWITCH, Boolean.class, false,
            any(), "whether each exchange is logged, off the request path",
            AccessLogConfig::enabled, AccessLogConfig.Builder::enabled);
    /** The line format. */
    public static final Setting<String> ACCESS_LOG_PATTERN = accessLog("pattern", Setting.Kind.TEXT, String.class,
            "combined", any(), "line format: combined, common, or a pattern of %-directives",
            AccessLogConfig::pattern, AccessLogConfig.Builder::pattern);
    /** The file; none for the logger. */
    public static final Setting<String> ACCESS_LOG_FILE = accessLog("file", Setting.Kind.TEXT, String.class, null,
            any(), "file lines are appended to; none for the dev.weft.httpserver.access logger at INFO",
            AccessLogConfig::file, AccessLogConfig.Builder::file);
    /** Daily rotation. */
    public static final Setting<Boolean> ACCESS_LOG_ROTATE_DAILY = accessLog("rotateDaily", SWITCH, Boolean.class,
            true, any(), "whether the file is renamed with its date when the day changes",
            AccessLogConfig::rotateDaily, AccessLogConfig.Builder::rotateDaily);
    /** Size rotation. */
    public static final Setting<Long> ACCESS_LOG_MAX_FILE_SIZE = accessLog("maxFileSize", SIZE, Long.class,
            100L * 1024 * 1024, atLeast(0), "size beyond which the file is rotated; 0 for no limit",
            AccessLogConfig::maxFileSize, AccessLogConfig.Builder::maxFileSize);
    /** Rotated files kept. */
    public static final Setting<Integer> ACCESS_LOG_MAX_FILES = accessLog("maxFiles", COUNT, Integer.class, 30,
            atLeast(1), "rotated files kept; older ones are deleted",
            AccessLogConfig::maxFiles, AccessLogConfig.Builder::maxFiles);
    /** Lines waiting to be written. */
    public static final Setting<Integer> ACCESS_LOG_QUEUE_CAPACITY = accessLog("queueCapacity", COUNT,
            Integer.class, 8192, atLeast(1), "most lines waiting to be written; more are dropped and counted",
            AccessLogConfig::queueCapacity, AccessLogConfig.Builder::queueCapacity);
    /** Flush interval. */
    public static final Setting<Duration> ACCESS_LOG_FLUSH_INTERVAL = accessLog("flushInterval", DURATION,
            Duration.class, Duration.ofSeconds(1), timeout(), "longest a written line waits to be flushed to the file",
            AccessLogConfig::flushInterval, AccessLogConfig.Builder::flushInterval);

    // ThreadsConfig

    /** Handlers on the connection's virtual thread, or on platform threads. */
    public static final Setting<Boolean> THREADS_VIRTUAL = threads("virtual", SWITCH, Boolean.class, true, any(),
            "whether handlers run on the connection's virtual thread; off: on a pool of platform threads",
            ThreadsConfig::virtual, ThreadsConfig.Builder::virtual);
    /** Size of the platform-thread pool. */
    public static final Setting<Integer> THREADS_MAX = threads("max", COUNT, Integer.class, 200, atLeast(1),
            "most platform threads running handlers when threads.virtual is off; more exchanges wait their turn",
            ThreadsConfig::max, ThreadsConfig.Builder::max);
    /** Platform threads kept ready. */
    public static final Setting<Integer> THREADS_MIN_SPARE = threads("minSpare", COUNT, Integer.class, 10,
            atLeast(0), "platform threads kept ready when threads.virtual is off",
            ThreadsConfig::minSpare, ThreadsConfig.Builder::minSpare);
    /** How long a virtual thread keeps its carrier while others wait. */
    public static final Setting<Duration> THREADS_TIME_SLICE = threads("timeSlice", DURATION, Duration.class,
            Duration.ofNanos(200_000), notNegativeDuration(),
            "longest a connection's virtual thread runs before the others waiting for a carrier go first",
            ThreadsConfig::timeSlice, ThreadsConfig.Builder::timeSlice);

    // Http2Config

    /** h2 by ALPN. */
    public static final Setting<Boolean> H2_ENABLED = http2("h2Enabled", "enabled", SWITCH, Boolean.class, true,
            any(), "whether an HttpsServer offers h2 by ALPN", Http2Config::h2Enabled, Http2Config.Builder::h2Enabled);
    /** h2c with prior knowledge. */
    public static final Setting<Boolean> H2C_ENABLED = http2("h2cEnabled", "h2c", SWITCH, Boolean.class, true,
            any(), "whether a cleartext server accepts HTTP/2 with prior knowledge",
            Http2Config::h2cEnabled, Http2Config.Builder::h2cEnabled);
    /** SETTINGS_MAX_CONCURRENT_STREAMS. */
    public static final Setting<Integer> HTTP2_MAX_CONCURRENT_STREAMS = http2("maxConcurrentStreams", COUNT,
            Integer.class, 128, atLeast(1), "most streams a client may have open; more are refused",
            Http2Config::maxConcurrentStreams, Http2Config.Builder::maxConcurrentStreams);
    /** SETTINGS_INITIAL_WINDOW_SIZE. */
    public static final Setting<Integer> HTTP2_INITIAL_WINDOW_SIZE = http2("initialWindowSize", SIZE,
            Integer.class, 128 * 1024, between(1, Integer.MAX_VALUE), "receive window of each stream",
            Http2Config::initialWindowSize, Http2Config.Builder::initialWindowSize);
    /** The connection's receive window. */
    public static final Setting<Integer> HTTP2_CONNECTION_WINDOW_SIZE = http2("connectionWindowSize", SIZE,
            Integer.class, 1024 * 1024, between(65_535, Integer.MAX_VALUE), "receive window of the whole connection",
            Http2Config::connectionWindowSize, Http2Config.Builder::connectionWindowSize);
    /** SETTINGS_MAX_FRAME_SIZE. */
    public static final Setting<Integer> HTTP2_MAX_FRAME_SIZE = http2("maxFrameSize", SIZE, Integer.class, 16_384,
            between(16_384, 16_777_215), "largest frame payload accepted",
            Http2Config::maxFrameSize, Http2Config.Builder::maxFrameSize);
    /** SETTINGS_MAX_HEADER_LIST_SIZE. */
    public static final Setting<Integer> HTTP2_MAX_HEADER_LIST_SIZE = http2("maxHeaderListSize", SIZE,
            Integer.class, 16 * 1024, atLeast(1), "largest decoded header list; larger gets 431",
            Http2Config::maxHeaderListSize, Http2Config.Builder::maxHeaderListSize);
    /** SETTINGS_HEADER_TABLE_SIZE. */
    public static final Setting<Integer> HTTP2_HEADER_TABLE_SIZE = http2("headerTableSize", SIZE, Integer.class,
            4096, atLeast(0), "size of the HPACK table for decoding requests",
            Http2Config::headerTableSize, Http2Config.Builder::headerTableSize);
    /** Stream resets tolerated per second. */
    public static final Setting<Integer> HTTP2_MAX_RESETS_PER_SECOND = http2("maxResetsPerSecond", COUNT,
            Integer.class, 100, atLeast(1), "average rate of stream resets tolerated, bursts of twice this",
            Http2Config::maxResetsPerSecond, Http2Config.Builder::maxResetsPerSecond);
    /** Frames that carry nothing a client needs, tolerated per second. */
    public static final Setting<Integer> HTTP2_MAX_CONTROL_FRAMES_PER_SECOND = http2("maxControlFramesPerSecond",
            COUNT, Integer.class, 200, atLeast(1),
            "average rate of frames with no effect for the client tolerated, bursts of twice this",
            Http2Config::maxControlFramesPerSecond, Http2Config.Builder::maxControlFramesPerSecond);
    /** Extended CONNECT (RFC 8441). */
    public static final Setting<Boolean> HTTP2_EXTENDED_CONNECT = http2("extendedConnect", "extendedConnect",
            SWITCH, Boolean.class, true, any(), "whether extended CONNECT (WebSocket over HTTP/2) is accepted",
            Http2Config::extendedConnect, Http2Config.Builder::extendedConnect);

    // WebSocketConfig

    /** Largest whole message. */
    public static final Setting<Integer> WEBSOCKET_MAX_MESSAGE_SIZE = webSocket("maxMessageSize", SIZE,
            Integer.class, 1024 * 1024, atLeast(1), "largest whole message after decompression; larger closes 1009",
            WebSocketConfig::maxMessageSize, WebSocketConfig.Builder::maxMessageSize);
    /** Largest frame payload. */
    public static final Setting<Integer> WEBSOCKET_MAX_FRAME_SIZE = webSocket("maxFrameSize", SIZE, Integer.class,
            1024 * 1024, atLeast(1), "largest frame payload; larger closes 1009",
            WebSocketConfig::maxFrameSize, WebSocketConfig.Builder::maxFrameSize);
    /** permessage-deflate. */
    public static final Setting<Boolean> WEBSOCKET_COMPRESSION = webSocket("compression", SWITCH, Boolean.class,
            true, any(), "whether permessage-deflate is accepted when offered",
            WebSocketConfig::compression, WebSocketConfig.Builder::compression);
    /** Smallest message compressed. */
    public static final Setting<Integer> WEBSOCKET_COMPRESSION_MIN_SIZE = webSocket("compressionMinSize", SIZE,
            Integer.class, 64, atLeast(0), "smallest outgoing message that is compressed",
            WebSocketConfig::compressionMinSize, WebSocketConfig.Builder::compressionMinSize);
    /** Idle time before a session is closed. */
    public static final Setting<Duration> WEBSOCKET_IDLE_TIMEOUT = webSocket("idleTimeout", DURATION,
            Duration.class, Duration.ofMinutes(5), positiveDuration(), "a session receiving nothing this long closes 1001",
            WebSocketConfig::idleTimeout, WebSocketConfig.Builder::idleTimeout);
    /** Ping interval. */
    public static final Setting<Duration> WEBSOCKET_PING_INTERVAL = webSocket("pingInterval", DURATION,
            Duration.class, Duration.ZERO, notNegativeDuration(), "when positive, a quiet session is pinged this often",
            WebSocketConfig::pingInterval, WebSocketConfig.Builder::pingInterval);
    /** Wait for the peer's close frame. */
    public static final Setting<Duration> WEBSOCKET_CLOSE_TIMEOUT = webSocket("closeTimeout", DURATION,
            Duration.class, Duration.ofSeconds(5), positiveDuration(), "wait for the peer's close frame after ours",
            WebSocketConfig::closeTimeout, WebSocketConfig.Builder::closeTimeout);
    /** Bytes queued by non-blocking sends. */
    public static final Setting<Long> WEBSOCKET_MAX_QUEUED_BYTES = webSocket("maxQueuedBytes", SIZE, Long.class,
            16L * 1024 * 1024, atLeast(1), "most bytes queued by one session's non-blocking sends",
            WebSocketConfig::maxQueuedBytes, WebSocketConfig.Builder::maxQueuedBytes);

    // ForwardedConfig

    /** Forwarded and X-Forwarded-* from trusted proxies. */
    public static final Setting<Boolean> FORWARDED_ENABLED = forwarded("enabled", SWITCH, Boolean.class, false, any(),
            "whether Forwarded and X-Forwarded-* from a trusted proxy give the client's address, scheme and host",
            ForwardedConfig::enabled, ForwardedConfig.Builder::enabled);
    /** The peers whose forwarded headers and PROXY headers are believed. */
    public static final Setting<String> FORWARDED_TRUSTED_PROXIES = forwarded("trustedProxies", Setting.Kind.TEXT,
            String.class, "internal", addressList(),
            "proxies whose forwarded headers are believed: addresses, CIDR blocks, internal (private and loopback)",
            ForwardedConfig::trustedProxies, ForwardedConfig.Builder::trustedProxies);
    /** A PROXY protocol header first on every connection. */
    public static final Setting<Boolean> FORWARDED_PROXY_PROTOCOL = forwarded("proxyProtocol", SWITCH, Boolean.class,
            false, any(), "whether every connection must start with a PROXY protocol v1 or v2 header",
            ForwardedConfig::proxyProtocol, ForwardedConfig.Builder::proxyProtocol);

    private Settings() {
    }

    /** Every setting, in the order of the configuration reference. */
    public static List<Setting<?>> all() {
        return Collections.unmodifiableList(ALL);
    }

    private static <T> Setting<T> server(String field, Setting.Kind kind, Class<T> type, T defaultValue,
            Bounds<? super T> bounds, String description, Function<ServerConfig, T> read,
            BiConsumer<ServerConfig.Builder, T> write) {
        return add(new Setting<>(SERVER, field, field, kind, type, defaultValue, bounds, description, read,
                (draft, value) -> write.accept(draft.server, value)));
    }

    private static <T> Setting<T> threads(String field, Setting.Kind kind, Class<T> type, T defaultValue,
            Bounds<? super T> bounds, String description, Function<ThreadsConfig, T> read,
            BiConsumer<ThreadsConfig.Builder, T> write) {
        return add(new Setting<>(THREADS, field, field, kind, type, defaultValue, bounds, description,
                config -> read.apply(config.threads()), (draft, value) -> write.accept(draft.threads, value)));
    }

    private static <T> Setting<T> http2(String field, Setting.Kind kind, Class<T> type, T defaultValue,
            Bounds<? super T> bounds, String description, Function<Http2Config, T> read,
            BiConsumer<Http2Config.Builder, T> write) {
        return http2(field, field, kind, type, defaultValue, bounds, description, read, write);
    }

    private static <T> Setting<T> http2(String field, String property, Setting.Kind kind, Class<T> type,
            T defaultValue, Bounds<? super T> bounds, String description, Function<Http2Config, T> read,
            BiConsumer<Http2Config.Builder, T> write) {
        return add(new Setting<>(HTTP2, field, property, kind, type, defaultValue, bounds, description,
                config -> read.apply(config.http2()), (draft, value) -> write.accept(draft.http2, value)));
    }

    private static <T> Setting<T> webSocket(String field, Setting.Kind kind, Class<T> type, T defaultValue,
            Bounds<? super T> bounds, String description, Function<WebSocketConfig, T> read,
            BiConsumer<WebSocketConfig.Builder, T> write) {
        return add(new Setting<>(WEBSOCKET, field, field, kind, type, defaultValue, bounds, description,
                config -> read.apply(config.webSocket()), (draft, value) -> write.accept(draft.webSocket, value)));
    }

    private static <T> Setting<T> forwarded(String field, Setting.Kind kind, Class<T> type, T defaultValue,
            Bounds<? super T> bounds, String description, Function<ForwardedConfig, T> read,
            BiConsumer<ForwardedConfig.Builder, T> write) {
        return add(new Setting<>(FORWARDED, field, field, kind, type, defaultValue, bounds, description,
                config -> read.apply(config.forwarded()), (draft, value) -> write.accept(draft.forwarded, value)));
    }

    private static <T> Setting<T> accessLog(String field, Setting.Kind kind, Class<T> type, T defaultValue,
            Bounds<? super T> bounds, String description, Function<AccessLogConfig, T> read,
            BiConsumer<AccessLogConfig.Builder, T> write) {
        return add(new Setting<>(ACCESS_LOG, field, field, kind, type, defaultValue, bounds, description,
                config -> read.apply(config.accessLog()), (draft, value) -> write.accept(draft.accessLog, value)));
    }

    private static <T> Setting<T> add(Setting<T> setting) {
        ALL.add(setting);
        return setting;
    }
}
