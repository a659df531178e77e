package dev.weft.spring.boot.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

import java.time.Duration;

/**
 * Weft-specific settings of the embedded server ({@code weft.server.*}). Defaults are the engine's defaults.
 *
 * <p>Connections always run on virtual threads, one per connection, so {@code spring.threads.virtual.enabled}
 * is not needed for Weft and changes nothing about how it serves requests. The common settings live under
 * {@code server.*}: {@code server.port}, {@code server.address}, {@code server.ssl.*},
 * {@code server.compression.*}, {@code server.shutdown}, {@code server.server-header} and
 * {@code server.max-http-request-header-size} (the largest request header section).
 */
@ConfigurationProperties("weft.server")
public class WeftServerProperties {

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
     * Largest request body, whether its length is declared or it is chunked. Larger bodies get a 413
     * response.
     */
    private DataSize maxRequestBodySize = DataSize.ofMegabytes(64);

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
     * Whether each exchange is logged to the 'dev.weft.httpserver.access' logger at INFO level.
     */
    private boolean accessLog;

    /**
     * The engine's statistics page.
     */
    private final StatsPage statsPage = new StatsPage();

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

    public boolean isAccessLog() {
        return accessLog;
    }

    public void setAccessLog(boolean accessLog) {
        this.accessLog = accessLog;
    }

    public StatsPage getStatsPage() {
        return statsPage;
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
}
