package dev.weft.spring.boot.autoconfigure;

import dev.weft.httpserver.config.Setting;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ThreadsConfig;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

import java.time.Duration;

/**
 * Weft-specific settings of the embedded server ({@code weft.server.*}). Defaults are the engine's defaults.
 *
 * <p>Connections always run on virtual threads, one per connection. Where the application's handlers run follows
 * Spring Boot's convention, as with Tomcat and Jetty: on a pool of platform threads ({@code weft.server.threads.*})
 * unless {@code spring.threads.virtual.enabled} is true, then on the connection's virtual thread. The common
 * settings live under
 * {@code server.*}: {@code server.port}, {@code server.address}, {@code server.ssl.*},
 * {@code server.compression.*}, {@code server.shutdown}, {@code server.server-header} and
 * {@code server.max-http-request-header-size} (the largest request header section) and
 * {@code server.http2.enabled} (HTTP/2 on or off; its limits are under {@code weft.server.http2.*}).
 *
 * <p>The {@code weft.server.http2.*}, {@code weft.server.websocket.*} and {@code weft.server.access-log.*} values
 * are checked when they are
 * bound, so an invalid one fails startup
 * naming the property.
 */
@ConfigurationProperties("weft.server")
public class WeftServerProperties implements Validator {

    /**
     * Maximum number of open connections. Further connections are refused: cleartext ones with a 503
     * response, TLS ones by closing them.
     */
    private int maxConnections = 10_000;

    /**
     * How long an idle keep-alive connection waits for its next request before it is closed.
     */
    private Duration idleTimeout = Duration.ofSeconds(30);

    /**
     * Time allowed from the first byte of a request to the end of its header section. Slower requests get a
     * 408 response and the connection is closed.
     */
    private Duration headerReadTimeout = Duration.ofSeconds(10);

    /**
     * Longest wait for the next bytes of a request body.
     */
    private Duration bodyReadTimeout = Duration.ofSeconds(30);

    /**
     * Longest time one write to a client may block before the connection is closed.
     */
    private Duration writeTimeout = Duration.ofSeconds(30);

    /**
     * Time allowed for a TLS handshake.
     */
    private Duration tlsHandshakeTimeout = Duration.ofSeconds(10);

    /**
     * Slowest a client may send a request body, per second, counted over the time the application waits for
     * it after the grace period. A slower body gets a 408 response (if none was sent yet) and the connection
     * is closed; HTTP/2 resets the stream. 0 turns the minimum off.
     */
    private DataSize minRequestDataRate = DataSize.ofBytes(240);

    /**
     * Slowest a client may take a response, per second, counted over the time writes wait for it after the
     * grace period. A slower client's connection is closed; HTTP/2 resets the stream. 0 turns the minimum off.
     */
    private DataSize minResponseDataRate = DataSize.ofBytes(240);

    /**
     * How long a request body or a response may move slower than its minimum rate before the rate is
     * enforced.
     */
    private Duration dataRateGracePeriod = Duration.ofSeconds(5);

    /**
     * How long reading and discarding a request body the application left unread may take, after the
     * response has been sent. Beyond it the connection is closed.
     */
    private Duration drainTimeout = Duration.ofSeconds(5);

    /**
     * Fraction of max-connections above which the server is short of connections: idle keep-alive
     * connections then close after low-resources-idle-timeout, and so do connections stalled on their
     * client; at max-connections a new connection takes the place of an idle or the slowest stalled one
     * instead of getting a 503 response.
     */
    private double lowResourcesThreshold = 0.9;

    /**
     * How long connections may be idle (or stalled on their client, at least a second) while the server is
     * short of connections.
     */
    private Duration lowResourcesIdleTimeout = Duration.ofSeconds(1);

    /**
     * Largest request body, whether its length is declared or it is chunked. Larger bodies get a 413
     * response. Unset (the default): no limit, as a body the application reads as a stream costs the server
     * no memory; what the server itself buffers or discards has its own limits.
     */
    private DataSize maxRequestBodySize;

    /**
     * Maximum number of header (or trailer) fields in one request. More get a 431 response.
     */
    private int maxHeaderCount = 100;

    /**
     * Longest request line (method, target and version). Longer lines get a 414 response.
     */
    private DataSize maxRequestLineLength = DataSize.ofKilobytes(8);

    /**
     * Listen backlog: how many connections the operating system queues before they are accepted.
     */
    private int backlog = 1024;

    /**
     * The access log: one line per exchange, to a rotating file or the 'dev.weft.httpserver.access' logger.
     */
    @NestedConfigurationProperty
    private final WeftAccessLogProperties accessLog = new WeftAccessLogProperties();

    /**
     * The engine's statistics page.
     */
    private final StatsPage statsPage = new StatsPage();

    /**
     * Threads of the application's handlers.
     */
    private final Threads threads = new Threads();

    /**
     * HTTP/2 settings and limits, used when server.http2.enabled is true.
     */
    private final Http2 http2 = new Http2();

    /**
     * WebSocket settings and limits of the sessions WebFlux WebSocketHandlers run, and of the Jakarta WebSocket
     * sessions (spring-websocket, STOMP) of a servlet application, over HTTP/1.1 and HTTP/2.
     */
    @NestedConfigurationProperty
    private final WeftWebSocketProperties websocket = new WeftWebSocketProperties();

    /**
     * The client's origin behind reverse proxies: trusted forwarded headers and the PROXY protocol.
     */
    @NestedConfigurationProperty
    private final WeftForwardedProperties forwarded = new WeftForwardedProperties();

    public int getMaxConnections() {
        return maxConnections;
    }

    public void setMaxConnections(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    public void setIdleTimeout(Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
    }

    public Duration getHeaderReadTimeout() {
        return headerReadTimeout;
    }

    public void setHeaderReadTimeout(Duration headerReadTimeout) {
        this.headerReadTimeout = headerReadTimeout;
    }

    public Duration getBodyReadTimeout() {
        return bodyReadTimeout;
    }

    public void setBodyReadTimeout(Duration bodyReadTimeout) {
        this.bodyReadTimeout = bodyReadTimeout;
    }

    public Duration getWriteTimeout() {
        return writeTimeout;
    }

    public void setWriteTimeout(Duration writeTimeout) {
        this.writeTimeout = writeTimeout;
    }

    public Duration getTlsHandshakeTimeout() {
        return tlsHandshakeTimeout;
    }

    public void setTlsHandshakeTimeout(Duration tlsHandshakeTimeout) {
        this.tlsHandshakeTimeout = tlsHandshakeTimeout;
    }

    public DataSize getMinRequestDataRate() {
        return minRequestDataRate;
    }

    public void setMinRequestDataRate(DataSize minRequestDataRate) {
        this.minRequestDataRate = minRequestDataRate;
    }

    public DataSize getMinResponseDataRate() {
        return minResponseDataRate;
    }

    public void setMinResponseDataRate(DataSize minResponseDataRate) {
        this.minResponseDataRate = minResponseDataRate;
    }

    public Duration getDataRateGracePeriod() {
        return dataRateGracePeriod;
    }

    public void setDataRateGracePeriod(Duration dataRateGracePeriod) {
        this.dataRateGracePeriod = dataRateGracePeriod;
    }

    public Duration getDrainTimeout() {
        return drainTimeout;
    }

    public void setDrainTimeout(Duration drainTimeout) {
        this.drainTimeout = drainTimeout;
    }

    public double getLowResourcesThreshold() {
        return lowResourcesThreshold;
    }

    public void setLowResourcesThreshold(double lowResourcesThreshold) {
        this.lowResourcesThreshold = lowResourcesThreshold;
    }

    public Duration getLowResourcesIdleTimeout() {
        return lowResourcesIdleTimeout;
    }

    public void setLowResourcesIdleTimeout(Duration lowResourcesIdleTimeout) {
        this.lowResourcesIdleTimeout = lowResourcesIdleTimeout;
    }

    public DataSize getMaxRequestBodySize() {
        return maxRequestBodySize;
    }

    public void setMaxRequestBodySize(DataSize maxRequestBodySize) {
        this.maxRequestBodySize = maxRequestBodySize;
    }

    public int getMaxHeaderCount() {
        return maxHeaderCount;
    }

    public void setMaxHeaderCount(int maxHeaderCount) {
        this.maxHeaderCount = maxHeaderCount;
    }

    public DataSize getMaxRequestLineLength() {
        return maxRequestLineLength;
    }

    public void setMaxRequestLineLength(DataSize maxRequestLineLength) {
        this.maxRequestLineLength = maxRequestLineLength;
    }

    public int getBacklog() {
        return backlog;
    }

    public void setBacklog(int backlog) {
        this.backlog = backlog;
    }

    public WeftAccessLogProperties getAccessLog() {
        return accessLog;
    }

    public StatsPage getStatsPage() {
        return statsPage;
    }

    public Threads getThreads() {
        return threads;
    }

    public Http2 getHttp2() {
        return http2;
    }

    public WeftWebSocketProperties getWebsocket() {
        return websocket;
    }

    public WeftForwardedProperties getForwarded() {
        return forwarded;
    }

    @Override
    public boolean supports(Class<?> type) {
        return WeftServerProperties.class.isAssignableFrom(type);
    }

    /**
     * Rejects {@code weft.server.http2.*}, {@code weft.server.websocket.*} and {@code weft.server.access-log.*}
     * values the engine would refuse, naming the property.
     */
    @Override
    public void validate(Object target, Errors errors) {
        WeftServerProperties properties = (WeftServerProperties) target;
        properties.getThreads().validate(errors);
        properties.getHttp2().validate(errors);
        properties.getWebsocket().validate(errors);
        properties.getForwarded().validate(errors);
        properties.getAccessLog().validate(errors);
    }

    /**
     * The engine's statistics page: the server's counters as plain text (JSON with {@code ?format=json}),
     * answered by the engine itself on the application's port, without authentication. Off by default.
     */
    public static class StatsPage {

        /**
         * Whether the server answers requests under the statistics path itself (the application never sees them).
         * The page is public on the server's port; enable it only where that is acceptable.
         */
        private boolean enabled;

        /**
         * Path of the statistics page; an absolute path.
         */
        private String path = "/__stats";

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public String getPath() {
            return path;
        }

        public void setPath(String path) {
            this.path = path;
        }
    }

    /**
     * Threads of the application's handlers. Unless {@code spring.threads.virtual.enabled} is true, handlers
     * run on a pool of platform threads, as with Tomcat and Jetty; with it, on each connection's virtual thread.
     */
    public static class Threads {

        /**
         * Maximum number of platform threads running handlers (when spring.threads.virtual.enabled is not true).
         * Further requests wait for one in arrival order.
         */
        private int max = 200;

        /**
         * Number of platform threads kept ready (when spring.threads.virtual.enabled is not true).
         */
        private int minSpare = 10;

        /**
         * Longest a connection's virtual thread runs before it lets the other connections waiting for a carrier
         * thread go first. 0 gives way after every request.
         */
        private Duration timeSlice = Duration.ofNanos(200_000);

        public int getMax() {
            return max;
        }

        public void setMax(int max) {
            this.max = max;
        }

        public int getMinSpare() {
            return minSpare;
        }

        public void setMinSpare(int minSpare) {
            this.minSpare = minSpare;
        }

        public Duration getTimeSlice() {
            return timeSlice;
        }

        public void setTimeSlice(Duration timeSlice) {
            this.timeSlice = timeSlice;
        }

        /**
         * The engine's thread settings with these values.
         *
         * @param virtual whether handlers run on virtual threads ({@code spring.threads.virtual.enabled})
         * @throws IllegalArgumentException if a value is out of the engine's range
         */
        public ThreadsConfig toConfig(boolean virtual) {
            return ThreadsConfig.builder().virtual(virtual).max(max).minSpare(minSpare).timeSlice(timeSlice).build();
        }

        void validate(Errors errors) {
            EngineSettings.validate(errors, "weft.server.threads", Setting.Group.THREADS, () -> toConfig(false));
        }
    }

    /**
     * HTTP/2 settings and limits. HTTP/2 itself is switched on with {@code server.http2.enabled}: then TLS
     * connections offer {@code h2} by ALPN and, unless {@code h2c} is false, cleartext connections accept HTTP/2
     * with prior knowledge.
     */
    public static class Http2 {


        /**
         * Whether cleartext connections accept HTTP/2 with prior knowledge (h2c) when server.http2.enabled is
         * true. When false, only TLS connections (by ALPN) speak HTTP/2.
         */
        private boolean h2c = true;

        /**
         * Whether HTTP/2 connections announce SETTINGS_ENABLE_CONNECT_PROTOCOL and accept extended CONNECT
         * (RFC 8441), so browsers can open WebSockets over an HTTP/2 connection.
         */
        private boolean extendedConnect = true;

        /**
         * Maximum number of streams a client may have open at once on one connection
         * (SETTINGS_MAX_CONCURRENT_STREAMS). More are refused with REFUSED_STREAM.
         */
        private int maxConcurrentStreams = 128;

        /**
         * Receive window of each stream (SETTINGS_INITIAL_WINDOW_SIZE): how much request body is buffered
         * before the application reads it.
         */
        private DataSize initialWindowSize = DataSize.ofKilobytes(128);

        /**
         * Receive window of a whole connection, shared by its streams. At least 65535 bytes.
         */
        private DataSize connectionWindowSize = DataSize.ofMegabytes(1);

        /**
         * Largest frame payload accepted (SETTINGS_MAX_FRAME_SIZE), from 16KB to 16MB minus one byte.
         */
        private DataSize maxFrameSize = DataSize.ofKilobytes(16);

        /**
         * Largest decoded request header list (names, values and 32 bytes per field). Larger ones get a 431
         * response.
         */
        private DataSize maxHeaderListSize = DataSize.ofKilobytes(16);

        /**
         * Size of the HPACK table used to decode request headers (SETTINGS_HEADER_TABLE_SIZE).
         */
        private DataSize headerTableSize = DataSize.ofKilobytes(4);

        /**
         * Average number of stream resets tolerated per connection and second, with bursts of twice this
         * (rapid reset, CVE-2023-44487). Clients above it get GOAWAY ENHANCE_YOUR_CALM.
         */
        private int maxResetsPerSecond = 100;

        /**
         * Average number of control frames (PING, SETTINGS, PRIORITY, empty DATA and CONTINUATION, unknown
         * types) tolerated per connection and second, with bursts of twice this. Clients above it get GOAWAY
         * ENHANCE_YOUR_CALM.
         */
        private int maxControlFramesPerSecond = 200;

        public boolean isH2c() {
            return h2c;
        }

        public void setH2c(boolean h2c) {
            this.h2c = h2c;
        }

        public boolean isExtendedConnect() {
            return extendedConnect;
        }

        public void setExtendedConnect(boolean extendedConnect) {
            this.extendedConnect = extendedConnect;
        }

        public int getMaxConcurrentStreams() {
            return maxConcurrentStreams;
        }

        public void setMaxConcurrentStreams(int maxConcurrentStreams) {
            this.maxConcurrentStreams = maxConcurrentStreams;
        }

        public DataSize getInitialWindowSize() {
            return initialWindowSize;
        }

        public void setInitialWindowSize(DataSize initialWindowSize) {
            this.initialWindowSize = initialWindowSize;
        }

        public DataSize getConnectionWindowSize() {
            return connectionWindowSize;
        }

        public void setConnectionWindowSize(DataSize connectionWindowSize) {
            this.connectionWindowSize = connectionWindowSize;
        }

        public DataSize getMaxFrameSize() {
            return maxFrameSize;
        }

        public void setMaxFrameSize(DataSize maxFrameSize) {
            this.maxFrameSize = maxFrameSize;
        }

        public DataSize getMaxHeaderListSize() {
            return maxHeaderListSize;
        }

        public void setMaxHeaderListSize(DataSize maxHeaderListSize) {
            this.maxHeaderListSize = maxHeaderListSize;
        }

        public DataSize getHeaderTableSize() {
            return headerTableSize;
        }

        public void setHeaderTableSize(DataSize headerTableSize) {
            this.headerTableSize = headerTableSize;
        }

        public int getMaxResetsPerSecond() {
            return maxResetsPerSecond;
        }

        public void setMaxResetsPerSecond(int maxResetsPerSecond) {
            this.maxResetsPerSecond = maxResetsPerSecond;
        }

        public int getMaxControlFramesPerSecond() {
            return maxControlFramesPerSecond;
        }

        public void setMaxControlFramesPerSecond(int maxControlFramesPerSecond) {
            this.maxControlFramesPerSecond = maxControlFramesPerSecond;
        }

        /**
         * The engine's HTTP/2 settings with these values: {@code h2} allowed, {@code h2c} as {@link #isH2c()}.
         * Neither is served unless {@code server.http2.enabled} is true.
         *
         * @throws IllegalArgumentException if a value is out of the engine's range
         */
        public Http2Config toConfig() {
            return Http2Config.builder()
                    .h2Enabled(true)
                    .h2cEnabled(h2c)
                    .extendedConnect(extendedConnect)
                    .maxConcurrentStreams(maxConcurrentStreams)
                    .initialWindowSize(EngineSettings.bytes("initialWindowSize", initialWindowSize))
                    .connectionWindowSize(EngineSettings.bytes("connectionWindowSize", connectionWindowSize))
                    .maxFrameSize(EngineSettings.bytes("maxFrameSize", maxFrameSize))
                    .maxHeaderListSize(EngineSettings.bytes("maxHeaderListSize", maxHeaderListSize))
                    .headerTableSize(EngineSettings.bytes("headerTableSize", headerTableSize))
                    .maxResetsPerSecond(maxResetsPerSecond)
                    .maxControlFramesPerSecond(maxControlFramesPerSecond)
                    .build();
        }

        void validate(Errors errors) {
            EngineSettings.validate(errors, "weft.server.http2", Setting.Group.HTTP2, this::toConfig);
        }
    }
}
