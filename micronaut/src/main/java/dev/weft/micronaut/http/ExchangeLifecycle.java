package dev.weft.micronaut.http;

import io.micronaut.core.execution.ExecutionFlow;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.web.router.RouteAttributes;
import io.micronaut.web.router.UriRouteMatch;
import io.micronaut.http.server.RequestLifecycle;
import io.micronaut.http.server.RouteExecutor;
import io.micronaut.http.server.types.files.FileCustomizableResponseType;
import io.micronaut.http.server.types.files.StreamedFile;
import io.micronaut.http.server.types.files.SystemFile;
import io.micronaut.web.router.resource.StaticResourceResolver;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Paths;

/**
 * Micronaut's request lifecycle (filters, routing, argument binding, the route, error routes and handlers)
 * for one request received by Weft, with the static resources of {@code micronaut.router.static-resources.*}
 * answering requests no route matched, as on Netty.
 */
final class ExchangeLifecycle extends RequestLifecycle {

    private final StaticResourceResolver staticResources;

    ExchangeLifecycle(RouteExecutor routeExecutor, StaticResourceResolver staticResources) {
        super(routeExecutor);
        this.staticResources = staticResources;
    }

    /** The response to {@code request}, or a {@code 413} when it declares a body over the size limit. */
    ExecutionFlow<HttpResponse<?>> run(WeftHttpRequest request) {
        if (request.body().tooLarge()) {
            return onError(request, request.body().tooLargeFailure());
        }
        return normalFlow(request);
    }

    /**
     * Micronaut's filters for a WebSocket opening handshake to {@code route}: {@code proceed} when they let it
     * through (the session may open), else the response a filter or an error handler gave.
     */
    ExecutionFlow<HttpResponse<?>> handshake(WeftHttpRequest request, UriRouteMatch<Object, Object> route,
                                             MutableHttpResponse<?> proceed) {
        RouteAttributes.setRouteMatch(request, route);
        RouteAttributes.setRouteInfo(request, route.getRouteInfo());
        RouteAttributes.setRouteMatch(proceed, route);
        RouteAttributes.setRouteInfo(proceed, route.getRouteInfo());
        return runWithFilters(request, (filtered, context) -> ExecutionFlow.just(proceed));
    }

    /** The response to a failure met outside the lifecycle (a body that could not be read, say). */
    ExecutionFlow<HttpResponse<?>> failed(WeftHttpRequest request, Throwable failure) {
        return onError(request, failure);
    }

    @Override
    protected FileCustomizableResponseType findFile(HttpRequest<?> request) {
        URL url = staticResources.resolve(request.getUri().getPath()).orElse(null);
        if (url == null) {
            return null;
        }
        if ("file".equals(url.getProtocol())) {
            try {
                File file = Paths.get(url.toURI()).toFile();
                if (file.isFile() && file.canRead()) {
                    return new SystemFile(file);
                }
                return null;
            } catch (URISyntaxException ex) {
                return null;
            }
        }
        return new StreamedFile(url);
    }
}
