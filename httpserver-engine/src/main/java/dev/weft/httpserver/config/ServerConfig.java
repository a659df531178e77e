package dev.weft.httpserver.config;

import java.time.Duration;
import java.util.Objects;

/**
 * Immutable, validated settings of one Weft server: limits, timeouts and optional features.
 *
 * <p>Every size, count and time a client controls has a limit here. Create one with {@link #builder()};
 * {@link #defaults()} gives the documented defaults. A server created through the plain JDK API
 * ({@code HttpServer.create()}) reads {@link SystemPropertyConfig} instead.
 *
 * @param maxRequestLineLength longest request line in bytes; longer gets {@code 414} (default 8 KiB)
 * @param maxHeaderSize        largest header section (and trailer section) in bytes; larger gets {@code 431}
 *                             (default 16 KiB)
 * @param maxHeaderCount       most header (or trailer) fields in one request; more gets {@code 431} (default 100)
 * @param maxRequestBodySize   largest request body in bytes, declared or chunked; larger gets {@code 413}
 *                             (default {@link Long#MAX_VALUE}: no limit, as a handler that reads the body as a
 *                             stream costs the server no memory; what the server itself buffers or discards
 *                             has its own limits: {@code maxDrainSize}, the form and multipart limits,
 *                             {@code webSocket().maxMessageSize()})
 * @param maxChunkLineLength   longest chunk-size line including chunk extensions, in bytes; longer gets
 *                             {@code 400} (default 4 KiB)
 * @param maxDrainSize         how much of an unread request body is read and discarded to keep a connection
 *                             alive after the exchange; beyond it the connection is closed (default 64 KiB)
 * @param drainTimeout         how long reading and discarding an unread request body may take, after the
 *                             response has been sent; beyond it the connection is closed (default 5 s)
 * @param maxConnections       most open connections; further ones are refused with {@code 503} (cleartext) or
 *                             closed (TLS) (default 10,000)
 * @param headerReadTimeout    time allowed from a request's first byte to the end of its header section;
 *                             slower gets {@code 408} and a close (default 10 s)
 * @param idleTimeout          how long an idle keep-alive connection waits for the next request (default 30 s)
 * @param bodyReadTimeout      longest wait for the next bytes of a request body (default 30 s)
 * @param writeTimeout         longest time one write to a client may block before the connection is closed
 *                             (default 30 s)
 * @param minRequestDataRate   slowest a client may send a request body, in bytes per second, counted over the
 *                             time the handler waits for it after {@code dataRateGracePeriod}; slower gets
 *                             {@code 408} (HTTP/2: {@code RST_STREAM}) and a close; 0 for no minimum (default 240)
 * @param minResponseDataRate  slowest a client may take a response, in bytes per second, counted over the time
 *                             writes wait for it after {@code dataRateGracePeriod}; slower is closed (HTTP/2: the
 *                             stream is reset); 0 for no minimum (default 240)
 * @param dataRateGracePeriod  how long a body or response may move slower than its minimum rate before the rate
 *                             is enforced (default 5 s)
 * @param lowResourcesThreshold fraction of {@code maxConnections} above which the server is short of connections:
 *                             idle keep-alive connections then close after {@code lowResourcesIdleTimeout}, and so
 *                             do connections stalled on their client (at least a second); at the limit a new
 *                             connection takes the place of an idle or the slowest stalled one instead of being
 *                             refused (default 0.9)
 * @param lowResourcesIdleTimeout how long connections may be idle (or stalled) while short of connections
 *                             (default 1 s)
 * @param tlsHandshakeTimeout  time allowed for a TLS handshake (default 10 s)
 * @param backlog              listen backlog used when {@code bind} is given 0 or less (default 1024)
 * @param serverHeader         value of the {@code Server} response header, or {@code null} for none
 *                             (default {@code Weft})
 * @param statsPath            path of the opt-in statistics page, or {@code null} for none (default none)
 * @param accessLog            the access log: off by default; its pattern, file and rotation (default
 *                             {@link AccessLogConfig#defaults()})
 * @param threads              where handlers run and how virtual threads share their carriers (default
 *                             {@link ThreadsConfig#defaults()})
 * @param http2                HTTP/2 settings and limits (default {@link Http2Config#defaults()})
 * @param webSocket            WebSocket settings and limits (default {@link WebSocketConfig#defaults()})
 * @param forwarded            the client's origin behind proxies (default {@link ForwardedConfig#defaults()})
 */
public record ServerConfig(
        int maxRequestLineLength,
        int maxHeaderSize,
        int maxHeaderCount,
        long maxRequestBodySize,
        int maxChunkLineLength,
        long maxDrainSize,
        Duration drainTimeout,
        int maxConnections,
        Duration headerReadTimeout,
        Duration idleTimeout,
        Duration bodyReadTimeout,
        Duration writeTimeout,
        long minRequestDataRate,
        long minResponseDataRate,
        Duration dataRateGracePeriod,
        double lowResourcesThreshold,
        Duration lowResourcesIdleTimeout,
        Duration tlsHandshakeTimeout,
        int backlog,
        String serverHeader,
        String statsPath,
        AccessLogConfig accessLog,
        ThreadsConfig threads,
        Http2Config http2,
        WebSocketConfig webSocket,
        ForwardedConfig forwarded) {

    private static final ServerConfig DEFAULTS = new Builder().build();

    /** Validates every setting; use {@link #builder()} rather than this constructor. */
    public ServerConfig {
        Settings.MAX_REQUEST_LINE_LENGTH.check(maxRequestLineLength);
        Settings.MAX_HEADER_SIZE.check(maxHeaderSize);
        Settings.MAX_HEADER_COUNT.check(maxHeaderCount);
        Settings.MAX_REQUEST_BODY_SIZE.check(maxRequestBodySize);
        Settings.MAX_CHUNK_LINE_LENGTH.check(maxChunkLineLength);
        Settings.MAX_DRAIN_SIZE.check(maxDrainSize);
        Settings.DRAIN_TIMEOUT.check(drainTimeout);
        Settings.MAX_CONNECTIONS.check(maxConnections);
        Settings.HEADER_READ_TIMEOUT.check(headerReadTimeout);
        Settings.IDLE_TIMEOUT.check(idleTimeout);
        Settings.BODY_READ_TIMEOUT.check(bodyReadTimeout);
        Settings.WRITE_TIMEOUT.check(writeTimeout);
        Settings.MIN_REQUEST_DATA_RATE.check(minRequestDataRate);
        Settings.MIN_RESPONSE_DATA_RATE.check(minResponseDataRate);
        Settings.DATA_RATE_GRACE_PERIOD.check(dataRateGracePeriod);
        Settings.LOW_RESOURCES_THRESHOLD.check(lowResourcesThreshold);
        Settings.LOW_RESOURCES_IDLE_TIMEOUT.check(lowResourcesIdleTimeout);
        Settings.TLS_HANDSHAKE_TIMEOUT.check(tlsHandshakeTimeout);
        Settings.BACKLOG.check(backlog);
        Settings.SERVER_HEADER.check(serverHeader);
        Settings.STATS_PATH.check(statsPath);
        if (serverHeader != null && !isFieldValue(serverHeader)) {
            throw new IllegalArgumentException("serverHeader is not a valid header value: " + serverHeader);
        }
        if (statsPath != null && (!statsPath.startsWith("/") || !isFieldValue(statsPath))) {
            throw new IllegalArgumentException("statsPath must be an absolute path, was " + statsPath);
        }
        Objects.requireNonNull(accessLog, "accessLog");
        Objects.requireNonNull(threads, "threads");
        Objects.requireNonNull(http2, "http2");
        Objects.requireNonNull(webSocket, "webSocket");
        Objects.requireNonNull(forwarded, "forwarded");
    }

    /** The documented defaults. */
    public static ServerConfig defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    private static boolean isFieldValue(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 && c != '\t' || c == 0x7f || c > 0xff) {
                return false;
            }
        }
        return true;
    }

    /** Mutable builder of a {@link ServerConfig}; {@link #build()} validates. */
    public static final class Builder {
        private int maxRequestLineLength = Settings.MAX_REQUEST_LINE_LENGTH.defaultValue();
        private int maxHeaderSize = Settings.MAX_HEADER_SIZE.defaultValue();
        private int maxHeaderCount = Settings.MAX_HEADER_COUNT.defaultValue();
        private long maxRequestBodySize = Settings.MAX_REQUEST_BODY_SIZE.defaultValue();
        private int maxChunkLineLength = Settings.MAX_CHUNK_LINE_LENGTH.defaultValue();
        private long maxDrainSize = Settings.MAX_DRAIN_SIZE.defaultValue();
        private Duration drainTimeout = Settings.DRAIN_TIMEOUT.defaultValue();
        private int maxConnections = Settings.MAX_CONNECTIONS.defaultValue();
        private Duration headerReadTimeout = Settings.HEADER_READ_TIMEOUT.defaultValue();
        private Duration idleTimeout = Settings.IDLE_TIMEOUT.defaultValue();
        private Duration bodyReadTimeout = Settings.BODY_READ_TIMEOUT.defaultValue();
        private Duration writeTimeout = Settings.WRITE_TIMEOUT.defaultValue();
        private long minRequestDataRate = Settings.MIN_REQUEST_DATA_RATE.defaultValue();
        private long minResponseDataRate = Settings.MIN_RESPONSE_DATA_RATE.defaultValue();
        private Duration dataRateGracePeriod = Settings.DATA_RATE_GRACE_PERIOD.defaultValue();
        private double lowResourcesThreshold = Settings.LOW_RESOURCES_THRESHOLD.defaultValue();
        private Duration lowResourcesIdleTimeout = Settings.LOW_RESOURCES_IDLE_TIMEOUT.defaultValue();
        private Duration tlsHandshakeTimeout = Settings.TLS_HANDSHAKE_TIMEOUT.defaultValue();
        private int backlog = Settings.BACKLOG.defaultValue();
        private String serverHeader = Settings.SERVER_HEADER.defaultValue();
        private String statsPath = Settings.STATS_PATH.defaultValue();
        private AccessLogConfig accessLog = AccessLogConfig.defaults();
        private ThreadsConfig threads = ThreadsConfig.defaults();
        private Http2Config http2 = Http2Config.defaults();
        private WebSocketConfig webSocket = WebSocketConfig.defaults();
        private ForwardedConfig forwarded = ForwardedConfig.defaults();

        private Builder() {
        }

        private Builder(ServerConfig c) {
            maxRequestLineLength = c.maxRequestLineLength;
            maxHeaderSize = c.maxHeaderSize;
            maxHeaderCount = c.maxHeaderCount;
            maxRequestBodySize = c.maxRequestBodySize;
            maxChunkLineLength = c.maxChunkLineLength;
            maxDrainSize = c.maxDrainSize;
            drainTimeout = c.drainTimeout;
            maxConnections = c.maxConnections;
            headerReadTimeout = c.headerReadTimeout;
            idleTimeout = c.idleTimeout;
            bodyReadTimeout = c.bodyReadTimeout;
            writeTimeout = c.writeTimeout;
            minRequestDataRate = c.minRequestDataRate;
            minResponseDataRate = c.minResponseDataRate;
            dataRateGracePeriod = c.dataRateGracePeriod;
            lowResourcesThreshold = c.lowResourcesThreshold;
            lowResourcesIdleTimeout = c.lowResourcesIdleTimeout;
            tlsHandshakeTimeout = c.tlsHandshakeTimeout;
            backlog = c.backlog;
            serverHeader = c.serverHeader;
            statsPath = c.statsPath;
            accessLog = c.accessLog;
            threads = c.threads;
            http2 = c.http2;
            webSocket = c.webSocket;
            forwarded = c.forwarded;
        }

        /** @see ServerConfig#maxRequestLineLength() */
        public Builder maxRequestLineLength(int bytes) { maxRequestLineLength = bytes; return this; }

        /** @see ServerConfig#maxHeaderSize() */
        public Builder maxHeaderSize(int bytes) { maxHeaderSize = bytes; return this; }

        /** @see ServerConfig#maxHeaderCount() */
        public Builder maxHeaderCount(int count) { maxHeaderCount = count; return this; }

        /** @see ServerConfig#maxRequestBodySize() */
        public Builder maxRequestBodySize(long bytes) { maxRequestBodySize = bytes; return this; }

        /** @see ServerConfig#maxChunkLineLength() */
        public Builder maxChunkLineLength(int bytes) { maxChunkLineLength = bytes; return this; }

        /** @see ServerConfig#maxDrainSize() */
        public Builder maxDrainSize(long bytes) { maxDrainSize = bytes; return this; }

        /** @see ServerConfig#drainTimeout() */
        public Builder drainTimeout(Duration d) { drainTimeout = d; return this; }

        /** @see ServerConfig#maxConnections() */
        public Builder maxConnections(int count) { maxConnections = count; return this; }

        /** @see ServerConfig#headerReadTimeout() */
        public Builder headerReadTimeout(Duration d) { headerReadTimeout = d; return this; }

        /** @see ServerConfig#idleTimeout() */
        public Builder idleTimeout(Duration d) { idleTimeout = d; return this; }

        /** @see ServerConfig#bodyReadTimeout() */
        public Builder bodyReadTimeout(Duration d) { bodyReadTimeout = d; return this; }

        /** @see ServerConfig#writeTimeout() */
        public Builder writeTimeout(Duration d) { writeTimeout = d; return this; }

        /** @see ServerConfig#minRequestDataRate() */
        public Builder minRequestDataRate(long bytesPerSecond) { minRequestDataRate = bytesPerSecond; return this; }

        /** @see ServerConfig#minResponseDataRate() */
        public Builder minResponseDataRate(long bytesPerSecond) { minResponseDataRate = bytesPerSecond; return this; }

        /** @see ServerConfig#dataRateGracePeriod() */
        public Builder dataRateGracePeriod(Duration d) { dataRateGracePeriod = d; return this; }

        /** @see ServerConfig#lowResourcesThreshold() */
        public Builder lowResourcesThreshold(double fraction) { lowResourcesThreshold = fraction; return this; }

        /** @see ServerConfig#lowResourcesIdleTimeout() */
        public Builder lowResourcesIdleTimeout(Duration d) { lowResourcesIdleTimeout = d; return this; }

        /** @see ServerConfig#tlsHandshakeTimeout() */
        public Builder tlsHandshakeTimeout(Duration d) { tlsHandshakeTimeout = d; return this; }

        /** @see ServerConfig#backlog() */
        public Builder backlog(int n) { backlog = n; return this; }

        /** @see ServerConfig#serverHeader() */
        public Builder serverHeader(String value) { serverHeader = value; return this; }

        /** @see ServerConfig#statsPath() */
        public Builder statsPath(String path) { statsPath = path; return this; }

        /** @see ServerConfig#accessLog() */
        public Builder accessLog(AccessLogConfig settings) { accessLog = settings; return this; }

        /** Switches the access log on or off, keeping its other settings. */
        public Builder accessLog(boolean on) { accessLog = accessLog.toBuilder().enabled(on).build(); return this; }

        /** @see ServerConfig#threads() */
        public Builder threads(ThreadsConfig settings) { threads = settings; return this; }

        /** @see ServerConfig#http2() */
        public Builder http2(Http2Config settings) { http2 = settings; return this; }

        /** @see ServerConfig#webSocket() */
        public Builder webSocket(WebSocketConfig settings) { webSocket = settings; return this; }

        /** @see ServerConfig#forwarded() */
        public Builder forwarded(ForwardedConfig settings) { forwarded = settings; return this; }

        /** Validates and returns the configuration. */
        public ServerConfig build() {
            return new ServerConfig(maxRequestLineLength, maxHeaderSize, maxHeaderCount, maxRequestBodySize,
                    maxChunkLineLength, maxDrainSize, drainTimeout, maxConnections, headerReadTimeout, idleTimeout,
                    bodyReadTimeout, writeTimeout, minRequestDataRate, minResponseDataRate, dataRateGracePeriod,
                    lowResourcesThreshold, lowResourcesIdleTimeout, tlsHandshakeTimeout, backlog, serverHeader,
                    statsPath, accessLog, threads, http2, webSocket, forwarded);
        }
    }
}
