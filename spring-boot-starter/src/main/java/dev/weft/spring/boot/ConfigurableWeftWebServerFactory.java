package dev.weft.spring.boot;

import dev.weft.httpserver.config.AccessLogConfig;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ThreadsConfig;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.ForwardedConfig;
import dev.weft.httpserver.config.WebSocketConfig;
import org.springframework.boot.web.server.ConfigurableWebServerFactory;
import org.springframework.boot.web.server.Http2;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * A Weft server factory, reactive ({@link WeftReactiveWebServerFactory}) or servlet
 * ({@code dev.weft.spring.boot.servlet.WeftServletWebServerFactory}): the engine's own limits and timeouts
 * ({@code weft.server.*} properties when auto-configured) and, last, {@link WeftServerCustomizer}s, on top of
 * what every Spring Boot server factory takes.
 */
public interface ConfigurableWeftWebServerFactory extends ConfigurableWebServerFactory {

    /** The engine settings every server this factory creates is configured from. */
    WeftEngineSettings getEngineSettings();

    /**
     * The engine configuration a server created now would get: the settings of this factory, then the server
     * header (if one was set; a blank header means no {@code Server} header), then HTTP/2 (the
     * {@linkplain #setHttp2Settings HTTP/2 settings}, switched off entirely unless {@link Http2} is enabled),
     * then every {@link WeftServerCustomizer} in order.
     *
     * @throws IllegalArgumentException if the result is invalid (for example a non-positive limit)
     */
    ServerConfig buildServerConfig();

    /** Replaces the {@link WeftServerCustomizer}s applied to the engine configuration. */
    default void setServerCustomizers(Collection<? extends WeftServerCustomizer> customizers) {
        getEngineSettings().setServerCustomizers(customizers);
    }

    /** Adds {@link WeftServerCustomizer}s, applied after those already present. */
    default void addServerCustomizers(WeftServerCustomizer... customizers) {
        getEngineSettings().addServerCustomizers(Arrays.asList(customizers));
    }

    /** The {@link WeftServerCustomizer}s applied to the engine configuration, in order. */
    default List<WeftServerCustomizer> getServerCustomizers() {
        return getEngineSettings().getServerCustomizers();
    }

    /**
     * Adds listeners each server gets beside the main one (the factory's port, address and SSL), as Tomcat's
     * {@code addAdditionalConnectors}: each its own address and port, cleartext or TLS with its own
     * {@link com.sun.net.httpserver.HttpsConfigurator}, serving the same application with the same engine
     * settings. HTTP/2 follows {@link Http2} unless the listener says otherwise. A server binds all its
     * listeners or none; a port taken fails its start with a {@link org.springframework.boot.web.server.PortInUseException}
     * naming that port.
     */
    default void addAdditionalListeners(Listener... listeners) {
        getEngineSettings().addAdditionalListeners(Arrays.asList(listeners));
    }

    /** Replaces the additional listeners ({@link #addAdditionalListeners}). */
    default void setAdditionalListeners(Collection<? extends Listener> listeners) {
        getEngineSettings().setAdditionalListeners(listeners);
    }

    /** The additional listeners ({@link #addAdditionalListeners}), in order. */
    default List<Listener> getAdditionalListeners() {
        return getEngineSettings().getAdditionalListeners();
    }

    /** Most open connections; further ones are refused. */
    default void setMaxConnections(int maxConnections) {
        getEngineSettings().config().maxConnections(maxConnections);
    }

    /** Largest request header section, in bytes. */
    default void setMaxHeaderSize(int bytes) {
        getEngineSettings().config().maxHeaderSize(bytes);
    }

    /** Most header fields in one request. */
    default void setMaxHeaderCount(int count) {
        getEngineSettings().config().maxHeaderCount(count);
    }

    /** Longest request line, in bytes. */
    default void setMaxRequestLineLength(int bytes) {
        getEngineSettings().config().maxRequestLineLength(bytes);
    }

    /** Largest request body, in bytes. */
    default void setMaxRequestBodySize(long bytes) {
        getEngineSettings().config().maxRequestBodySize(bytes);
    }

    /** Time allowed from a request's first byte to the end of its header section. */
    default void setHeaderReadTimeout(Duration timeout) {
        getEngineSettings().config().headerReadTimeout(timeout);
    }

    /** How long an idle keep-alive connection waits for the next request. */
    default void setIdleTimeout(Duration timeout) {
        getEngineSettings().config().idleTimeout(timeout);
    }

    /** Longest wait for the next bytes of a request body. */
    default void setBodyReadTimeout(Duration timeout) {
        getEngineSettings().config().bodyReadTimeout(timeout);
    }

    /** Longest time one write to a client may block. */
    default void setWriteTimeout(Duration timeout) {
        getEngineSettings().config().writeTimeout(timeout);
    }

    /** Time allowed for a TLS handshake. */
    default void setTlsHandshakeTimeout(Duration timeout) {
        getEngineSettings().config().tlsHandshakeTimeout(timeout);
    }

    /** Slowest a client may send a request body after the grace period, in bytes per second; 0 for no minimum. */
    default void setMinRequestDataRate(long bytesPerSecond) {
        getEngineSettings().config().minRequestDataRate(bytesPerSecond);
    }

    /** Slowest a client may take a response after the grace period, in bytes per second; 0 for no minimum. */
    default void setMinResponseDataRate(long bytesPerSecond) {
        getEngineSettings().config().minResponseDataRate(bytesPerSecond);
    }

    /** How long a body or response may move slower than its minimum rate before the rate is enforced. */
    default void setDataRateGracePeriod(Duration gracePeriod) {
        getEngineSettings().config().dataRateGracePeriod(gracePeriod);
    }

    /** How long discarding a request body left unread may take after the response. */
    default void setDrainTimeout(Duration timeout) {
        getEngineSettings().config().drainTimeout(timeout);
    }

    /** Fraction of the connection limit above which the server is short of connections. */
    default void setLowResourcesThreshold(double fraction) {
        getEngineSettings().config().lowResourcesThreshold(fraction);
    }

    /** How long connections may be idle (or stalled) while the server is short of connections. */
    default void setLowResourcesIdleTimeout(Duration timeout) {
        getEngineSettings().config().lowResourcesIdleTimeout(timeout);
    }

    /** Listen backlog. */
    default void setBacklog(int backlog) {
        getEngineSettings().config().backlog(backlog);
    }

    /** Path of the engine's statistics page, or {@code null} for none. */
    default void setStatsPath(String path) {
        getEngineSettings().config().statsPath(path);
    }

    /** Switches the engine's access log on or off, keeping its other settings. */
    default void setAccessLog(boolean accessLog) {
        getEngineSettings().config().accessLog(accessLog);
    }

    /**
     * The engine's access log: on or off, its pattern, file and rotation. Defaults to
     * {@link AccessLogConfig#defaults()} (off).
     */
    default void setAccessLogSettings(AccessLogConfig settings) {
        getEngineSettings().config().accessLog(Objects.requireNonNull(settings, "settings"));
    }

    /**
     * Where handlers run and how connections share carrier threads. A factory starts with handlers on platform
     * threads ({@code virtual} off), as Tomcat's and Jetty's do; auto-configuration turns {@code virtual} on when
     * {@code spring.threads.virtual.enabled} is true.
     */
    default void setThreadsSettings(ThreadsConfig settings) {
        getEngineSettings().config().threads(settings);
    }

    /** Where handlers run and how connections share carrier threads. */
    default ThreadsConfig getThreadsSettings() {
        return getEngineSettings().config().build().threads();
    }

    /**
     * HTTP/2 limits, and which of {@code h2} (TLS, by ALPN) and {@code h2c} (cleartext, prior knowledge) may be
     * served. They apply only when {@link Http2} ({@code server.http2.enabled}) is enabled; otherwise the
     * server speaks HTTP/1.1 only. Defaults to {@link Http2Config#defaults()}: both allowed.
     */
    default void setHttp2Settings(Http2Config settings) {
        getEngineSettings().setHttp2Settings(settings);
    }

    /** The HTTP/2 limits and the protocols allowed when HTTP/2 is enabled. */
    default Http2Config getHttp2Settings() {
        return getEngineSettings().getHttp2Settings();
    }

    /**
     * Settings and limits of WebSocket sessions (those of WebFlux {@code WebSocketHandler}s included).
     * Defaults to {@link WebSocketConfig#defaults()}.
     */
    default void setWebSocketSettings(WebSocketConfig settings) {
        getEngineSettings().setWebSocketSettings(settings);
    }

    /**
     * Where the client's origin is taken from behind reverse proxies: trusted {@code Forwarded}/
     * {@code X-Forwarded-*} fields and the PROXY protocol. Defaults to {@link ForwardedConfig#defaults()} (off).
     */
    default void setForwardedSettings(ForwardedConfig settings) {
        getEngineSettings().setForwardedSettings(settings);
    }
}
