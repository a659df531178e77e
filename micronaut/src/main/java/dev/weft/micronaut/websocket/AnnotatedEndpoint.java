package dev.weft.micronaut.websocket;

import dev.weft.httpserver.websocket.CloseStatus;
import dev.weft.httpserver.websocket.WebSocketListener;
import io.micronaut.core.annotation.AnnotationMetadata;
import io.micronaut.core.async.publisher.Publishers;
import io.micronaut.core.bind.BoundExecutable;
import io.micronaut.core.bind.DefaultExecutableBinder;
import io.micronaut.core.bind.exceptions.UnsatisfiedArgumentException;
import io.micronaut.core.io.buffer.ByteArrayBufferFactory;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Consumes;
import io.micronaut.http.context.ServerRequestContext;
import io.micronaut.inject.ExecutableMethod;
import io.micronaut.inject.MethodExecutionHandle;
import io.micronaut.websocket.CloseReason;
import io.micronaut.websocket.WebSocketPongMessage;
import io.micronaut.websocket.bind.WebSocketState;
import io.micronaut.websocket.context.WebSocketBean;
import io.micronaut.websocket.event.WebSocketMessageProcessedEvent;
import io.micronaut.websocket.event.WebSocketSessionClosedEvent;
import io.micronaut.websocket.event.WebSocketSessionOpenEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

/**
 * One session of a {@code @ServerWebSocket} bean: the engine's callbacks, one at a time on the session's
 * thread, call the bean's {@code @OnOpen}, {@code @OnMessage} (text and binary), {@code @OnMessage} pong handler,
 * {@code @OnClose} and {@code @OnError} methods with their arguments bound as on Netty (session, URI variables,
 * query values, request arguments, the message, the {@link CloseReason}, the error).
 *
 * <p>A method runs on the session's thread, or on the executor {@code @ExecuteOn} (or
 * {@code micronaut.server.thread-selection}) names while the session waits; a method returning a
 * {@code Publisher} or a {@code CompletionStage} is waited for before the next message is read, so the
 * messages of a session are handled in order. A method that fails goes to {@code @OnError}; without one (or
 * when it fails too) the session closes with {@code 1011}. A message the bean has no {@code @OnMessage} for, or
 * one that cannot become its argument, closes the session with {@code 1003}, as on Netty.
 */
final class AnnotatedEndpoint implements WebSocketListener {

    private static final Logger LOG = LoggerFactory.getLogger(AnnotatedEndpoint.class);

    private final WebSocketRoutes routes;
    private final WebSocketBean<?> bean;
    private final HttpRequest<?> request;
    private final Map<String, Object> uriVariables;
    private final MethodExecutionHandle<?, ?> onMessage;
    private final MethodExecutionHandle<?, ?> onPong;
    private WeftWebSocketSession session;
    private Argument<?> messageArgument;
    private Argument<?> pongArgument;

    AnnotatedEndpoint(WebSocketRoutes routes, WebSocketBean<?> bean, HttpRequest<?> request,
                      Map<String, Object> uriVariables) {
        this.routes = routes;
        this.bean = bean;
        this.request = request;
        this.uriVariables = uriVariables;
        this.onMessage = bean.messageMethod().orElse(null);
        this.onPong = bean.pongMethod().orElse(null);
    }

    @Override
    public void onOpen(dev.weft.httpserver.websocket.WebSocketSession engine) {
        session = new WeftWebSocketSession(engine, request, uriVariables, routes.sessions, routes.codec);
        routes.sessions.add(session);
        messageArgument = onMessage == null ? null : unboundArgument(onMessage);
        pongArgument = onPong == null ? null : unboundArgument(onPong);
        if ((onMessage != null && messageArgument == null) || (onPong != null && pongArgument == null)) {
            LOG.error("WebSocket @OnMessage method of {} must have exactly one parameter for the message",
                    bean.getTarget().getClass().getName());
            session.close(CloseReason.INTERNAL_ERROR);
            return;
        }
        Optional<? extends MethodExecutionHandle<?, ?>> onOpen = bean.openMethod();
        if (onOpen.isPresent()) {
            try {
                call(onOpen.get(), Map.of());
            } catch (Throwable failure) {
                LOG.error("@OnOpen of {} failed: {}", bean.getTarget().getClass().getName(), failure.toString(),
                        failure);
                forwardError(failure, true);
            }
        }
        // after @OnOpen, as Netty's runtime publishes it
        publish(new WebSocketSessionOpenEvent(session));
    }

    @Override
    public void onText(dev.weft.httpserver.websocket.WebSocketSession engine, String message) {
        received(message);
    }

    @Override
    public void onBinary(dev.weft.httpserver.websocket.WebSocketSession engine, ByteBuffer message) {
        byte[] bytes = new byte[message.remaining()];
        message.get(bytes);
        received(bytes);
    }

    @Override
    public void onPong(dev.weft.httpserver.websocket.WebSocketSession engine, ByteBuffer payload) {
        if (onPong == null || pongArgument == null || !session.isOpen()) {
            return;
        }
        byte[] bytes = new byte[payload.remaining()];
        payload.get(bytes);
        try {
            call(onPong, Map.of(pongArgument, new WebSocketPongMessage(ByteArrayBufferFactory.INSTANCE.wrap(bytes))));
        } catch (Throwable failure) {
            forwardError(failure, false);
        }
    }

    @Override
    public void onClose(dev.weft.httpserver.websocket.WebSocketSession engine, CloseStatus status) {
        if (session == null) {
            return;
        }
        routes.sessions.remove(session);
        LOG.debug("{} closed with {}", session, status);
        bean.closeMethod().ifPresent(onClose -> {
            try {
                call(onClose, bindable(onClose, List.of(new CloseReason(status.code(), status.reason()))));
            } catch (Throwable failure) {
                LOG.error("@OnClose of {} failed: {}", bean.getTarget().getClass().getName(), failure.toString(),
                        failure);
            }
        });
        publish(new WebSocketSessionClosedEvent(session));
    }

    @Override
    public void onError(dev.weft.httpserver.websocket.WebSocketSession engine, Throwable error) {
        if (session != null) {
            forwardError(error, false);
        }
    }

    private void received(Object message) {
        if (!session.isOpen()) {
            return;
        }
        if (onMessage == null) {
            LOG.debug("{} received a message, but {} has no @OnMessage method", session,
                    bean.getTarget().getClass().getName());
            session.close(CloseReason.UNSUPPORTED_DATA);
            return;
        }
        Object argument;
        try {
            argument = routes.codec.decode(message, messageArgument, consumes(onMessage));
        } catch (RuntimeException failure) {
            LOG.debug("{} received a message that is not a {}: {}", session, messageArgument, failure.toString());
            forwardError(failure, false);
            return;
        }
        if (argument == null) {
            LOG.debug("{} received a message that cannot become a {}", session, messageArgument);
            session.close(new CloseReason(CloseReason.UNSUPPORTED_DATA.getCode(),
                    "Received data cannot be converted to " + messageArgument.getTypeName()));
            return;
        }
        try {
            call(onMessage, Map.of(messageArgument, argument));
        } catch (Throwable failure) {
            LOG.error("@OnMessage of {} failed: {}", bean.getTarget().getClass().getName(), failure.toString(),
                    failure);
            forwardError(failure, false);
            return;
        }
        publish(new WebSocketMessageProcessedEvent<>(session, argument));
    }

    /**
     * Gives {@code failure} to {@code @OnError}; without one, or when it cannot take this failure or fails
     * itself, the session closes with {@code 1011}.
     */
    private void forwardError(Throwable failure, boolean alwaysClose) {
        Optional<? extends MethodExecutionHandle<?, ?>> onError = bean.errorMethod();
        boolean handled = false;
        if (onError.isPresent()) {
            try {
                call(onError.get(), bindable(onError.get(), List.of(failure)));
                handled = true;
            } catch (UnsatisfiedArgumentException unsuitable) {
                LOG.debug("@OnError of {} does not take {}", bean.getTarget().getClass().getName(), failure.toString());
            } catch (Throwable failed) {
                LOG.error("@OnError of {} failed: {}", bean.getTarget().getClass().getName(), failed.toString(), failed);
            }
        }
        if ((alwaysClose || !handled) && session.isOpen()) {
            session.close(CloseReason.INTERNAL_ERROR);
        }
    }

    /** The one argument of {@code method} that no binder fills (the message), or {@code null}. */
    private Argument<?> unboundArgument(MethodExecutionHandle<?, ?> method) {
        List<Argument<?>> unbound = new DefaultExecutableBinder<WebSocketState>()
                .tryBind(method.getExecutableMethod(), routes.binders, new WebSocketState(session, request))
                .getUnboundArguments();
        return unbound.size() == 1 ? unbound.get(0) : null;
    }

    /** The arguments of {@code method} whose type is that of one of {@code values}, bound to it. */
    private static Map<Argument<?>, Object> bindable(MethodExecutionHandle<?, ?> method, List<?> values) {
        Map<Argument<?>, Object> bound = new HashMap<>();
        for (Argument<?> argument : method.getExecutableMethod().getArguments()) {
            for (Object value : values) {
                if (argument.getType().isInstance(value)) {
                    bound.put(argument, value);
                    break;
                }
            }
        }
        return bound;
    }

    private static MediaType consumes(AnnotationMetadata method) {
        return method.stringValue(Consumes.class).map(MediaType::of).orElse(MediaType.APPLICATION_JSON_TYPE);
    }

    /** Binds and invokes {@code method}, and waits for what it returns when that is a publisher or a stage. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void call(MethodExecutionHandle<?, ?> method, Map<Argument<?>, Object> bound) throws Throwable {
        ExecutableMethod<?, ?> executable = method.getExecutableMethod();
        BoundExecutable invocation = new DefaultExecutableBinder<WebSocketState>(bound)
                .bind(executable, routes.binders, new WebSocketState(session, request));
        Object result;
        Optional<ExecutorService> executor = routes.executorFor(executable);
        try {
            if (executor.isPresent()) {
                result = CompletableFuture.supplyAsync(() -> invoke(invocation, method), executor.get()).get();
            } else {
                result = invoke(invocation, method);
            }
            if (result == null) {
                return;
            }
            if (Publishers.isConvertibleToPublisher(result)) {
                Flux.from(Publishers.convertToPublisher(routes.conversion, result)).then().toFuture().get();
            } else if (result instanceof CompletionStage<?> stage) {
                stage.toCompletableFuture().get();
            }
        } catch (ExecutionException | CompletionException wrapped) {
            throw wrapped.getCause() != null ? wrapped.getCause() : wrapped;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Object invoke(BoundExecutable invocation, MethodExecutionHandle<?, ?> method) {
        return ServerRequestContext.with(request, (Supplier<Object>) () -> invocation.invoke(method.getTarget()));
    }

    private void publish(Object event) {
        try {
            routes.events.publishEvent(event);
        } catch (RuntimeException failure) {
            LOG.error("Publishing {} failed: {}", event.getClass().getSimpleName(), failure.toString(), failure);
        }
    }
}
