package dev.weft.micronaut.config;

import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.Setting;
import dev.weft.httpserver.config.Settings;
import dev.weft.httpserver.config.WebSocketConfig;
import io.micronaut.context.env.Environment;
import io.micronaut.http.HttpVersion;
import io.micronaut.http.server.HttpServerConfiguration;

import java.time.Duration;
import java.util.Map;

/**
 * The engine configuration of a Micronaut application's server: Micronaut's own {@code micronaut.server.*}
 * properties mapped onto the engine's settings, then every {@code weft.server.*} property the application sets,
 * which wins over the Micronaut property it overlaps.
 *
 * <ul>
 *   <li>{@code micronaut.server.idle-timeout} (Micronaut's default 5 minutes): how long an idle connection is
 *       kept, and an idle WebSocket session (closed with {@code 1001}); it also bounds the waits for a request
 *       under way, as Netty's idle handler ends a connection on which nothing has moved for that long in any
 *       state;</li>
 *   <li>{@code micronaut.server.read-timeout} (seconds, unset by default; Netty ignores it): the time allowed for
 *       a request's header section and for each read of its body (unset: the engine's 10 s and 30 s), at most
 *       the idle timeout;</li>
 *   <li>{@code micronaut.server.server-header}: the {@code Server} field, none when unset (as on Netty);</li>
 *   <li>{@code micronaut.server.http-version}: {@code 2.0} offers HTTP/2 (h2 by ALPN over TLS, h2c with prior
 *       knowledge in cleartext); {@code 1.1}, the default, speaks HTTP/1.1 only.</li>
 * </ul>
 * {@code micronaut.server.max-request-size} and {@code max-request-buffer-size} are enforced by the request
 * bridge, so that an oversized body gets Micronaut's own {@code 413} error body.
 */
public final class EngineConfiguration {

    private EngineConfiguration() {
    }

    /** The engine configuration for {@code server}'s settings and the {@code weft.server.*} properties. */
    public static ServerConfig of(HttpServerConfiguration server, Environment environment) {
        Map<Setting<?>, String> engine = EngineProperties.read(environment);
        ServerConfig.Builder builder = ServerConfig.builder();
        Duration header = Settings.HEADER_READ_TIMEOUT.defaultValue();
        Duration body = Settings.BODY_READ_TIMEOUT.defaultValue();
        Integer readSeconds = server.getReadTimeout().filter(seconds -> seconds > 0).orElse(null);
        if (readSeconds != null) {
            header = Duration.ofSeconds(readSeconds);
            body = header;
        }
        Duration idle = server.getIdleTimeout();
        if (idle != null && idle.isPositive()) {
            builder.idleTimeout(idle);
            builder.webSocket(WebSocketConfig.defaults().toBuilder().idleTimeout(idle).build());
            header = min(header, idle);
            body = min(body, idle);
        }
        builder.headerReadTimeout(header).bodyReadTimeout(body);
        builder.serverHeader(server.getServerHeader().filter(h -> !h.isBlank()).orElse(null));
        boolean http2 = server.getHttpVersion() == HttpVersion.HTTP_2_0;
        builder.http2(Http2Config.builder().h2Enabled(http2).h2cEnabled(http2).build());
        return EngineProperties.apply(builder.build(), engine);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
