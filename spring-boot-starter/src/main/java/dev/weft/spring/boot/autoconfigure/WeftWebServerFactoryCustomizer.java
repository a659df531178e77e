package dev.weft.spring.boot.autoconfigure;

import dev.weft.spring.boot.ConfigurableWeftWebServerFactory;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.core.Ordered;
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

    private static final Log logger = LogFactory.getLog(WeftWebServerFactoryCustomizer.class);

    private final ServerProperties serverProperties;

    private final WeftServerProperties weftProperties;

    private final boolean virtualThreads;

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
        this.serverProperties = serverProperties;
        this.weftProperties = weftProperties;
        this.virtualThreads = virtualThreads;
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
        if (serverProperties.getForwardHeadersStrategy() == ServerProperties.ForwardHeadersStrategy.NATIVE) {
            logger.warn("Weft has no native support for forwarded headers; "
                    + "set server.forward-headers-strategy=framework instead of native");
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
    }

    private static int toInt(DataSize size) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, size.toBytes()));
    }
}
