package dev.weft.micronaut.websocket;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.httpserver.websocket.WebSocketHandler;
import io.micronaut.context.BeanContext;
import io.micronaut.context.event.ApplicationEventPublisher;
import io.micronaut.core.convert.ConversionService;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.RequestBinderRegistry;
import io.micronaut.http.server.HttpServerConfiguration;
import io.micronaut.inject.ExecutableMethod;
import io.micronaut.scheduling.executor.ExecutorSelector;
import io.micronaut.web.router.Router;
import io.micronaut.web.router.UriRouteMatch;
import io.micronaut.websocket.annotation.OnMessage;
import io.micronaut.websocket.annotation.OnOpen;
import io.micronaut.websocket.annotation.ServerWebSocket;
import io.micronaut.websocket.bind.WebSocketStateBinderRegistry;
import io.micronaut.websocket.context.WebSocketBean;
import io.micronaut.websocket.context.WebSocketBeanRegistry;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * {@code @ServerWebSocket} beans on the engine's WebSocket layer: finds the bean an upgrade request is for (by
 * the route Micronaut made of its URI template, so its variables are bound) and, once Micronaut's filters have
 * let the request through, answers the handshake and runs the session on the calling thread with the bean's
 * methods as its listener. Over HTTP/1.1 the handshake is RFC 6455's, over HTTP/2 RFC 8441's extended CONNECT.
 *
 * <p>As on Netty, {@code @OnMessage(maxPayloadLength)} (default 64 KiB) limits each message (and frame): a
 * larger one closes the session with {@code 1009}; {@code @ServerWebSocket(subprotocols)} lists the
 * subprotocols the server accepts, the first the client offers being chosen.
 */
@Singleton
public final class WebSocketRoutes {

    private static final Logger LOG = LoggerFactory.getLogger(WebSocketRoutes.class);
    private static final int DEFAULT_MAX_PAYLOAD = 65536;

    final OpenSessions sessions;
    final MessageCodec codec;
    final WebSocketStateBinderRegistry binders;
    final ConversionService conversion;
    final ApplicationEventPublisher<Object> events;
    private final Router router;
    private final WebSocketBeanRegistry beans;
    private final ExecutorSelector executors;
    private final HttpServerConfiguration configuration;

    WebSocketRoutes(BeanContext context, Router router, RequestBinderRegistry requestBinders,
                    ConversionService conversion, ExecutorSelector executors, HttpServerConfiguration configuration,
                    OpenSessions sessions, MessageCodec codec, ApplicationEventPublisher<Object> events) {
        this.router = router;
        this.beans = WebSocketBeanRegistry.forServer(context);
        this.binders = new WebSocketStateBinderRegistry(requestBinders, conversion);
        this.conversion = conversion;
        this.executors = executors;
        this.configuration = configuration;
        this.sessions = sessions;
        this.codec = codec;
        this.events = events;
    }

    /**
     * The {@code @ServerWebSocket} route {@code request} asks to open a WebSocket on, or {@code null} when it is
     * no upgrade request or no such bean serves its path (it is then an ordinary request).
     */
    public UriRouteMatch<Object, Object> find(HttpRequest<?> request, HttpExchange exchange) {
        if (!WebSocketHandler.isUpgradeRequest(exchange)) {
            return null;
        }
        return router.<Object, Object>find(HttpMethod.GET, request.getPath(), request)
                .filter(route -> route.isAnnotationPresent(OnMessage.class) || route.isAnnotationPresent(OnOpen.class))
                .findFirst()
                .orElse(null);
    }

    /**
     * Answers the opening handshake for {@code route} and runs the session until it ends: on the calling thread
     * when it is virtual, else on a new virtual thread (the calling platform thread returns at once).
     */
    public void open(HttpExchange exchange, HttpRequest<?> request, UriRouteMatch<Object, Object> route)
            throws IOException {
        WebSocketBean<?> bean = beans.getWebSocket(route.getTarget().getClass());
        int maxPayload = bean.messageMethod()
                .map(m -> m.intValue(OnMessage.class, "maxPayloadLength").orElse(DEFAULT_MAX_PAYLOAD))
                .orElse(DEFAULT_MAX_PAYLOAD);
        WebSocketConfig config = Weft.config(exchange.getHttpContext().getServer()).webSocket().toBuilder()
                .maxMessageSize(maxPayload)
                .maxFrameSize(maxPayload)
                .build();
        String subprotocol = subprotocol(bean, request);
        AnnotatedEndpoint endpoint = new AnnotatedEndpoint(this, bean, request, route.getVariableValues());
        if (Thread.currentThread().isVirtual()) {
            WebSocketHandler.upgrade(exchange, endpoint, subprotocol, config);
            return;
        }
        Thread.ofVirtual().name("weft-micronaut-websocket").start(() -> {
            try {
                WebSocketHandler.upgrade(exchange, endpoint, subprotocol, config);
            } catch (IOException ex) {
                LOG.debug("WebSocket session from {} failed: {}", exchange.getRemoteAddress(), ex.toString());
                exchange.close();
            }
        });
    }

    Optional<ExecutorService> executorFor(ExecutableMethod<?, ?> method) {
        return executors.select(method, configuration.getThreadSelection());
    }

    /** The first subprotocol the client offers that the bean accepts, or {@code null}. */
    private static String subprotocol(WebSocketBean<?> bean, HttpRequest<?> request) {
        List<String> accepted = bean.getBeanDefinition().stringValue(ServerWebSocket.class, "subprotocols")
                .map(list -> Arrays.stream(list.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList())
                .orElse(List.of());
        if (accepted.isEmpty()) {
            return null;
        }
        for (String field : request.getHeaders().getAll("Sec-WebSocket-Protocol")) {
            for (String offered : field.split(",")) {
                if (accepted.contains(offered.trim())) {
                    return offered.trim();
                }
            }
        }
        return null;
    }
}
