package dev.weft.micronaut.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.Weft;
import io.micronaut.context.event.ApplicationEventPublisher;
import io.micronaut.core.convert.ConversionService;
import io.micronaut.core.execution.ExecutionFlow;
import io.micronaut.core.execution.ImperativeExecutionFlow;
import io.micronaut.core.propagation.PropagatedContext;
import io.micronaut.http.ByteBodyHttpResponse;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.web.router.UriRouteMatch;
import dev.weft.micronaut.websocket.WebSocketRoutes;
import io.micronaut.http.body.MessageBodyHandlerRegistry;
import io.micronaut.http.context.ServerHttpRequestContext;
import io.micronaut.http.context.event.HttpRequestTerminatedEvent;
import io.micronaut.http.server.HttpServerConfiguration;
import io.micronaut.http.server.RouteExecutor;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.web.router.resource.StaticResourceResolver;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;

/**
 * The engine handler that serves a Micronaut application: for each exchange it builds a
 * {@link WeftHttpRequest}, runs Micronaut's request lifecycle and response encoding, and sends the result.
 *
 * <p>Threading: it runs where the engine runs handlers (by default inline on the connection's virtual thread;
 * with {@code weft.server.threads.virtual=false} on the engine's platform handler threads). Filters and routes
 * run there too unless {@code @ExecuteOn} or {@code micronaut.server.thread-selection} sends them to one of
 * Micronaut's executors, or a reactive route continues elsewhere; the thread waits for the response and then
 * writes it, streaming bodies included, so every socket write of an exchange happens on it.
 */
@Singleton
public final class MicronautHttpHandler implements HttpHandler {

    private static final Logger LOG = LoggerFactory.getLogger(MicronautHttpHandler.class);

    private final RouteExecutor routeExecutor;
    private final StaticResourceResolver staticResources;
    private final ExchangeResponses responses;
    private final RequestFactory requests;
    private final ApplicationEventPublisher<HttpRequestTerminatedEvent> terminated;
    private final WebSocketRoutes webSockets;

    MicronautHttpHandler(RouteExecutor routeExecutor, StaticResourceResolver staticResources,
                         MessageBodyHandlerRegistry registry, ConversionService conversionService,
                         HttpServerConfiguration configuration, @Named(TaskExecutors.BLOCKING) Executor ioExecutor,
                         BodyDecoder.FormDecoder multipart,
                         ApplicationEventPublisher<HttpRequestTerminatedEvent> terminated,
                         WebSocketRoutes webSockets) {
        this.routeExecutor = routeExecutor;
        this.staticResources = staticResources;
        this.responses = new ExchangeResponses(routeExecutor, registry, conversionService, ioExecutor);
        this.requests = new RequestFactory(conversionService, configuration, ioExecutor,
                new BodyDecoder(registry, conversionService, multipart, configuration.getMaxParams()));
        this.terminated = terminated;
        this.webSockets = webSockets;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        WeftHttpRequest request = requests.create(exchange);
        try (PropagatedContext.Scope ignore = PropagatedContext.getOrEmpty()
                .plus(new ServerHttpRequestContext(request)).propagate()) {
            ExchangeLifecycle lifecycle = new ExchangeLifecycle(routeExecutor, staticResources);
            UriRouteMatch<Object, Object> webSocket = webSockets.find(request, exchange);
            if (webSocket != null && openWebSocket(exchange, request, lifecycle, webSocket)) {
                return;
            }
            ByteBodyHttpResponse<?> response = await(respond(lifecycle, request));
            if (Weft.isCutShort(exchange)) {
                // The client broke its request (a stalled, slow or broken body) or went away: the engine answers
                // with the status of what happened (408, 400) and closes the connection.
                LOG.debug("{} was cut short by its client; the engine answers it", request);
                response.close();
                Weft.abort(exchange, new IOException("The client broke off the request"));
                return;
            }
            ResponseWriter.write(exchange, response);
        } catch (InterruptedIOException ex) {
            LOG.debug("{} interrupted by the server stopping", request);
            throw ex;
        } catch (IOException ex) {
            if (Weft.isCutShort(exchange)) {
                LOG.debug("{} was cut short by its client: {}", request, ex.toString());
            } else {
                LOG.debug("{} failed while its response was sent: {}", request, ex.toString());
            }
            Weft.abort(exchange, ex);
        } finally {
            request.body().close();
            terminated.publishEvent(new HttpRequestTerminatedEvent(request));
        }
    }

    /**
     * Runs Micronaut's filters on a WebSocket opening handshake and opens the session when they let it through
     * (with the header fields they set); otherwise writes their response. Returns whether the exchange was
     * answered here.
     */
    private boolean openWebSocket(HttpExchange exchange, WeftHttpRequest request, ExchangeLifecycle lifecycle,
                                  UriRouteMatch<Object, Object> route) throws IOException {
        MutableHttpResponse<?> proceed = HttpResponse.ok();
        HttpResponse<?> answer = await(lifecycle.handshake(request, route, proceed)
                .onErrorResume(failure -> lifecycle.failed(request, unwrap(failure))));
        if (answer != proceed) {
            ResponseWriter.write(exchange, await(responses.encodeHttpResponseSafe(request, answer)));
            return true;
        }
        proceed.getHeaders().forEach((name, values) -> exchange.getResponseHeaders().put(name, List.copyOf(values)));
        webSockets.open(exchange, request, route);
        return true;
    }

    private ExecutionFlow<? extends ByteBodyHttpResponse<?>> respond(ExchangeLifecycle lifecycle,
                                                                     WeftHttpRequest request) {
        ExecutionFlow<HttpResponse<?>> flow = lifecycle.run(request)
                .onErrorResume(failure -> lifecycle.failed(request, unwrap(failure)));
        return flow.flatMap(response -> responses.encodeHttpResponseSafe(request, response));
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof UncheckedIOException io ? io.getCause() : failure;
    }

    /** The response, at once when the flow has completed already (a synchronous route), else when it does. */
    private static <T> T await(ExecutionFlow<T> flow) throws IOException {
        ImperativeExecutionFlow<T> done = flow.tryComplete();
        try {
            if (done != null) {
                if (done.getError() != null) {
                    throw new ExecutionException(done.getError());
                }
                return done.getValue();
            }
            return flow.toCompletableFuture().get();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for the response");
        } catch (ExecutionException ex) {
            throw new IOException("The response could not be produced: " + ex.getCause(), ex.getCause());
        }
    }
}
