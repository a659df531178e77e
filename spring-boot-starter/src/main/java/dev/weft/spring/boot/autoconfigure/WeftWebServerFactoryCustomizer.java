package dev.weft.spring.boot.autoconfigure;

import dev.weft.spring.boot.ConfigurableWeftWebServerFactory;
import org.springframework.boot.cloud.CloudPlatform;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

/**
 * Applies {@code server.server-header}, {@code server.max-http-request-header-size} and every
 * {@code weft.server.*} property to a Weft server factory, reactive or servlet. (Port, address, SSL,
 * compression, {@code server.http2.enabled}, shutdown and the {@code server.servlet.*} settings are applied by
 * Spring Boot's own reactive or servlet server customizer.)
 */
public class WeftWebServerFactoryCustomizer
        implements WebServerFactoryCustomizer<ConfigurableWeftWebServerFactory>, Ordered {

    /** The order of this customizer. */
    public static final int ORDER = 0;

    private final ServerProperties serverProperties;

    private final WeftServerProperties weftProperties;

    private final boolean virtualThreads;

    private final boolean cloudPlatformForwards;

    /**
     * A customizer applying the given properties.
     *
     * @param serverProperties the {@code server.*} properties
     * @param weftProperties   the {@code weft.server.*} properties
     */
    public WeftWebServerFactoryCustomizer(ServerProperties serverProperties, WeftServerProperties weftProperties) {
        this(serverProperties, weftProperties, false);
    }

    /**
     * A customizer applying the given properties.
     *
     * @param serverProperties the {@code server.*} properties
     * @param weftProperties   the {@code weft.server.*} properties
     * @param virtualThreads   whether {@code spring.threads.virtual.enabled} is on: handlers then run on the
     *                         connections' virtual threads instead of a pool of platform threads
     */
    public WeftWebServerFactoryCustomizer(ServerProperties serverProperties, WeftServerProperties weftProperties,
            boolean virtualThreads) {
        this(serverProperties, weftProperties, virtualThreads, false);
    }

    /**
     * A customizer applying the given properties.
     *
     * @param serverProperties      the {@code server.*} properties
     * @param weftProperties        the {@code weft.server.*} properties
     * @param virtualThreads        whether {@code spring.threads.virtual.enabled} is on
     * @param cloudPlatformForwards whether the application runs on a cloud platform whose load balancer sends
     *                              forwarded headers: with no {@code server.forward-headers-strategy} set, the
     *                              engine then handles them ({@link #cloudPlatformForwards(Environment)})
     */
    public WeftWebServerFactoryCustomizer(ServerProperties serverProperties, WeftServerProperties weftProperties,
            boolean virtualThreads, boolean cloudPlatformForwards) {
        this.serverProperties = serverProperties;
        this.weftProperties = weftProperties;
        this.virtualThreads = virtualThreads;
        this.cloudPlatformForwards = cloudPlatformForwards;
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public void customize(ConfigurableWeftWebServerFactory factory) {
        if (serverProperties.getServerHeader() != null) {
            factory.setServerHeader(serverProperties.getServerHeader());
        }
        DataSize headerSize = serverProperties.getMaxHttpRequestHeaderSize();
        if (headerSize != null && headerSize.toBytes() > 0) {
            factory.setMaxHeaderSize(toInt(headerSize));
        }
        WeftServerProperties weft = weftProperties;
        factory.setMaxConnections(weft.getMaxConnections());
        factory.setIdleTimeout(weft.getIdleTimeout());
        factory.setHeaderReadTimeout(weft.getHeaderReadTimeout());
        factory.setBodyReadTimeout(weft.getBodyReadTimeout());
        factory.setWriteTimeout(weft.getWriteTimeout());
        factory.setTlsHandshakeTimeout(weft.getTlsHandshakeTimeout());
        if (weft.getMinRequestDataRate() != null) {
            factory.setMinRequestDataRate(weft.getMinRequestDataRate().toBytes());
        }
        if (weft.getMinResponseDataRate() != null) {
            factory.setMinResponseDataRate(weft.getMinResponseDataRate().toBytes());
        }
        factory.setDataRateGracePeriod(weft.getDataRateGracePeriod());
        factory.setDrainTimeout(weft.getDrainTimeout());
        factory.setLowResourcesThreshold(weft.getLowResourcesThreshold());
        factory.setLowResourcesIdleTimeout(weft.getLowResourcesIdleTimeout());
        if (weft.getMaxRequestBodySize() != null) {
            factory.setMaxRequestBodySize(weft.getMaxRequestBodySize().toBytes());
        }
        factory.setMaxHeaderCount(weft.getMaxHeaderCount());
        if (weft.getMaxRequestLineLength() != null) {
            factory.setMaxRequestLineLength(toInt(weft.getMaxRequestLineLength()));
        }
        factory.setBacklog(weft.getBacklog());
        factory.setAccessLogSettings(weft.getAccessLog().toConfig());
        WeftServerProperties.StatsPage statsPage = weft.getStatsPage();
        factory.setStatsPath(statsPage.isEnabled() ? statsPage.getPath() : null);
        factory.setThreadsSettings(weft.getThreads().toConfig(virtualThreads));
        factory.setHttp2Settings(weft.getHttp2().toConfig());
        factory.setWebSocketSettings(weft.getWebsocket().toConfig());
        factory.setForwardedSettings(weft.getForwarded().toConfig(nativeForwardHeaders()));
    }

    /**
     * Whether the engine handles forwarded headers itself, as Spring Boot decides for its own servers:
     * {@code server.forward-headers-strategy=native}, or no strategy set on a cloud platform that uses
     * forwarded headers.
     */
    private boolean nativeForwardHeaders() {
        ServerProperties.ForwardHeadersStrategy strategy = serverProperties.getForwardHeadersStrategy();
        if (strategy == null) {
            return cloudPlatformForwards;
        }
        return strategy == ServerProperties.ForwardHeadersStrategy.NATIVE;
    }

    /** Whether the application runs on a cloud platform whose load balancer sends forwarded headers. */
    static boolean cloudPlatformForwards(Environment environment) {
        CloudPlatform platform = CloudPlatform.getActive(environment);
        return platform != null && platform.isUsingForwardHeaders();
    }

    private static int toInt(DataSize size) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, size.toBytes()));
    }
}
