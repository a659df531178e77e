package dev.weft.spring.boot;

import dev.weft.httpserver.config.ForwardedConfig;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ThreadsConfig;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.WebSocketConfig;
import org.springframework.boot.web.server.Http2;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * The engine settings of a Weft server factory, reactive or servlet: the engine's limits and timeouts, the
 * HTTP/2 and WebSocket settings and the {@link WeftServerCustomizer}s, from which each server's
 * {@link ServerConfig} is built. Written through {@link ConfigurableWeftWebServerFactory}'s setters.
 */
public final class WeftEngineSettings {

    private final ServerConfig.Builder config = ServerConfig.builder();

    private Http2Config http2Settings = Http2Config.defaults();

    private final List<WeftServerCustomizer> serverCustomizers = new ArrayList<>();

    private final List<Listener> additionalListeners = new ArrayList<>();

    /**
     * The engine's defaults, HTTP/2 allowed (when Spring Boot's {@link Http2} enables it), handlers on platform
     * threads (Spring Boot's default for its servers), no customizer.
     */
    public WeftEngineSettings() {
        config.threads(ThreadsConfig.builder().virtual(false).build());
    }

    /**
     * The engine configuration a server created now would get: these settings, then the server header (if one
     * was set; a blank header means no {@code Server} header), then HTTP/2 (the HTTP/2 settings, switched off
     * entirely unless {@code http2} is enabled), then every {@link WeftServerCustomizer} in order.
     *
     * @param serverHeader Spring Boot's server header, or {@code null} for the engine's
     * @param http2        Spring Boot's HTTP/2 switch, or {@code null} (off)
     * @throws IllegalArgumentException if the result is invalid (for example a non-positive limit)
     */
    public ServerConfig serverConfig(String serverHeader, Http2 http2) {
        ServerConfig.Builder builder = config.build().toBuilder();
        if (serverHeader != null) {
            builder.serverHeader(serverHeader.isBlank() ? null : serverHeader);
        }
        boolean http2Enabled = http2 != null && http2.isEnabled();
        builder.http2(http2Settings.toBuilder()
                .h2Enabled(http2Enabled && http2Settings.h2Enabled())
                .h2cEnabled(http2Enabled && http2Settings.h2cEnabled())
                .build());
        for (WeftServerCustomizer customizer : serverCustomizers) {
            customizer.customize(builder);
        }
        return builder.build();
    }

    /** The engine configuration being built (limits, timeouts, WebSocket settings); change it in place. */
    ServerConfig.Builder config() {
        return config;
    }

    void setHttp2Settings(Http2Config settings) {
        http2Settings = Objects.requireNonNull(settings, "settings");
    }

    Http2Config getHttp2Settings() {
        return http2Settings;
    }

    void setServerCustomizers(Collection<? extends WeftServerCustomizer> customizers) {
        Objects.requireNonNull(customizers, "customizers");
        serverCustomizers.clear();
        serverCustomizers.addAll(customizers);
    }

    void addServerCustomizers(List<WeftServerCustomizer> customizers) {
        serverCustomizers.addAll(customizers);
    }

    List<WeftServerCustomizer> getServerCustomizers() {
        return List.copyOf(serverCustomizers);
    }

    void setAdditionalListeners(Collection<? extends Listener> listeners) {
        List<Listener> copy = List.copyOf(listeners);
        additionalListeners.clear();
        additionalListeners.addAll(copy);
    }

    void addAdditionalListeners(List<Listener> listeners) {
        additionalListeners.addAll(List.copyOf(listeners));
    }

    /** The listeners each server gets beside the one of the factory's port, address and SSL, in order. */
    public List<Listener> getAdditionalListeners() {
        return List.copyOf(additionalListeners);
    }

    void setWebSocketSettings(WebSocketConfig settings) {
        config.webSocket(Objects.requireNonNull(settings, "settings"));
    }

    void setForwardedSettings(ForwardedConfig settings) {
        config.forwarded(Objects.requireNonNull(settings, "settings"));
    }
}
