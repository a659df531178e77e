package dev.weft.micrometer;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.spring.boot.WeftWebServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationListener;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Binds {@link WeftMetrics} to a registry once the application has started, if the application's web server is
 * Weft, reactive or servlet (both are {@link WeftWebServer}s). The server does not exist while beans are created,
 * hence the event: the binder looks it up through {@link WebServerApplicationContext#getWebServer()} and binds at
 * most once. Its meters are removed when the bean is destroyed.
 */
public final class WeftMetricsBinder implements ApplicationListener<ApplicationStartedEvent>, DisposableBean {

    private static final Log logger = LogFactory.getLog(WeftMetricsBinder.class);

    private final MeterRegistry registry;
    private final Iterable<Tag> tags;
    private final AtomicReference<WeftMetrics> bound = new AtomicReference<>();

    /** A binder adding {@code tags} to every Weft meter it registers in {@code registry}. */
    public WeftMetricsBinder(MeterRegistry registry, Iterable<Tag> tags) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    @Override
    public void onApplicationEvent(ApplicationStartedEvent event) {
        if (bound.get() != null) {
            return;
        }
        if (!(event.getApplicationContext() instanceof WebServerApplicationContext webContext)
                || !(webContext.getWebServer() instanceof WeftWebServer webServer)) {
            return;
        }
        WeftMetrics metrics = new WeftMetrics(() -> stats(webServer), tags);
        if (bound.compareAndSet(null, metrics)) {
            metrics.bindTo(registry);
            logger.debug("Bound Weft server metrics");
        }
    }

    /**
     * The statistics of the engine server currently running behind {@code webServer}, or {@code null} when it
     * is not running. Looked up on every read: a {@link WeftWebServer} creates a new engine on each start.
     */
    private static StatsSnapshot stats(WeftWebServer webServer) {
        HttpServer engine = webServer.getServer();
        return engine != null && Weft.isWeft(engine) ? Weft.stats(engine) : null;
    }

    /** Whether the meters have been bound. */
    public boolean isBound() {
        return bound.get() != null;
    }

    @Override
    public void destroy() {
        WeftMetrics metrics = bound.getAndSet(null);
        if (metrics != null) {
            metrics.unbindFrom(registry);
        }
    }
}
