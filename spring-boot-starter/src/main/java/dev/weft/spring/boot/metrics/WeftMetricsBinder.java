package dev.weft.spring.boot.metrics;

import dev.weft.micrometer.WeftMetrics;
import dev.weft.spring.boot.WeftWebServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;

import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Binds {@link WeftMetrics} to a registry for every Weft web server of the application, reactive or servlet
 * (both are {@link WeftWebServer}s), once it has started: the application's own, tagged
 * {@code server=application}, and the server of a separate management port, tagged {@code server=management}
 * (its {@linkplain WebServerApplicationContext#getServerNamespace() server namespace}). The servers do not exist
 * while beans are created, hence the event; the management context publishes its event to its parent, where this
 * binder lives. Each server is bound at most once; its meters read the engine server running behind it now (a
 * {@link WeftWebServer} creates a new one on each start) and are removed when the bean is destroyed.
 */
public final class WeftMetricsBinder implements ApplicationListener<WebServerInitializedEvent>, DisposableBean {

    /** The {@value WeftMetrics#SERVER_TAG} tag of the application's own server (the context without a namespace). */
    public static final String APPLICATION_SERVER = "application";

    private static final Log logger = LogFactory.getLog(WeftMetricsBinder.class);

    private final MeterRegistry registry;
    private final Iterable<Tag> tags;
    private final Map<String, WeftMetrics> bound = new ConcurrentHashMap<>();

    /** A binder adding {@code tags}, and the server's {@value WeftMetrics#SERVER_TAG} tag, to every Weft meter. */
    public WeftMetricsBinder(MeterRegistry registry, Iterable<Tag> tags) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    @Override
    public void onApplicationEvent(WebServerInitializedEvent event) {
        if (!(event.getWebServer() instanceof WeftWebServer webServer)) {
            return;
        }
        String namespace = event.getApplicationContext().getServerNamespace();
        String server = namespace != null ? namespace : APPLICATION_SERVER;
        WeftMetrics metrics = WeftMetrics.ofCurrent(webServer::getServer,
                Tags.of(WeftMetrics.SERVER_TAG, server).and(tags));
        if (bound.putIfAbsent(server, metrics) == null) {
            metrics.bindTo(registry);
            logger.debug("Bound the meters of the Weft server '" + server + "'");
        }
    }

    /** Whether the meters of at least one server have been bound. */
    public boolean isBound() {
        return !bound.isEmpty();
    }

    /** The {@value WeftMetrics#SERVER_TAG} tags of the servers whose meters are bound, in order. */
    public Set<String> boundServers() {
        return new TreeSet<>(bound.keySet());
    }

    @Override
    public void destroy() {
        for (String server : bound.keySet()) {
            WeftMetrics metrics = bound.remove(server);
            if (metrics != null) {
                metrics.unbindFrom(registry);
            }
        }
    }
}
