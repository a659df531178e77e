package dev.weft.websocket.jakarta;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.config.WebSocketConfig;
import dev.weft.websocket.jakarta.container.Deployment;
import dev.weft.websocket.jakarta.container.EndpointMount;
import dev.weft.websocket.jakarta.container.EndpointRegistry;
import dev.weft.websocket.jakarta.container.ServletRequests;
import dev.weft.websocket.jakarta.container.OfferedExtension;
import dev.weft.websocket.jakarta.container.RoutingHandler;
import dev.weft.websocket.jakarta.session.SessionDefaults;
import jakarta.websocket.ClientEndpointConfig;
import jakarta.websocket.CloseReason;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.Extension;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpointConfig;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A Jakarta WebSocket 2.2 {@link ServerContainer} on the Weft engine's WebSocket layer: deploy endpoints with
 * {@link #addEndpoint(Class)} or {@link #addEndpoint(ServerEndpointConfig)} and mount {@link #handler()} on a
 * context of an engine {@code HttpServer}; endpoint paths are relative to that context.
 *
 * <pre>{@code
 * WeftServerContainer ws = WeftServerContainer.create();
 * ws.addEndpoint(ChatEndpoint.class);          // @ServerEndpoint("/chat/{room}")
 * server.createContext("/", ws.handler());
 * }</pre>
 *
 * <p>Sessions run over HTTP/1.1 and HTTP/2 (RFC 8441) with permessage-deflate when the client offers it, under
 * the engine's limits ({@link WebSocketConfig}) and statistics. The client API ({@code connectToServer}) is not
 * provided. Call {@link #close()} to close every session and stop the idle timer.
 */
public final class WeftServerContainer implements ServerContainer, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(WeftServerContainer.class.getName());

    private final EndpointRegistry registry;
    private final ScheduledExecutorService scheduler;
    private final WebSocketConfig engine;
    private volatile long asyncSendTimeout;
    private volatile long maxIdleTimeout;
    private volatile int maxBinary;
    private volatile int maxText;

    private WeftServerContainer(WebSocketConfig engine) {
        this.engine = engine;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "weft-jakarta-websocket-timer");
            t.setDaemon(true);
            return t;
        });
        List<Extension> installed = engine == null || engine.compression()
                ? List.of(new OfferedExtension("permessage-deflate")) : List.of();
        this.registry = new EndpointRegistry(new Deployment(this, this::defaults, scheduler, engine, installed));
    }

    /** A container whose sessions have the server's WebSocket limits ({@code ServerConfig.webSocket()}). */
    public static WeftServerContainer create() {
        return new WeftServerContainer(null);
    }

    /** A container whose sessions have the given engine limits (message and frame sizes, compression, ...). */
    public static WeftServerContainer create(WebSocketConfig engineLimits) {
        return new WeftServerContainer(java.util.Objects.requireNonNull(engineLimits, "engineLimits"));
    }

    /** The engine handler of the deployed endpoints, to mount on a context; unknown paths get {@code 404}. */
    public HttpHandler handler() {
        return new RoutingHandler(registry);
    }

    /**
     * Whether an endpoint is deployed at {@code path} (relative to the mount point); for containers that route
     * first (the servlet integration).
     */
    public boolean hasEndpoint(String path) {
        return registry.find(path) != null;
    }

    /**
     * Answers an opening handshake on {@code exchange} for the endpoint at {@code path}, then runs the session;
     * for integrations that find the exchange themselves (the servlet container).
     *
     * @param httpSession what {@code HandshakeRequest.getHttpSession()} gives, or null
     * @return false if no endpoint is deployed at {@code path} (nothing was answered)
     */
    public boolean upgrade(HttpExchange exchange, String path, Object httpSession) throws IOException {
        var match = registry.find(path);
        if (match == null) {
            return false;
        }
        match.mount().handle(exchange, match.pathParameters(), httpSession);
        return true;
    }

    private SessionDefaults defaults() {
        return new SessionDefaults(maxIdleTimeout, maxText, maxBinary, asyncSendTimeout);
    }

    @Override
    public void addEndpoint(Class<?> endpointClass) throws DeploymentException {
        registry.add(endpointClass);
    }

    @Override
    public void addEndpoint(ServerEndpointConfig serverConfig) throws DeploymentException {
        registry.add(serverConfig);
    }

    /**
     * Opens a session of {@code sec}'s endpoint on a request the caller routed itself (Spring's upgrade strategy
     * does): an engine {@link HttpExchange}, whose session then runs on the calling thread, or an
     * {@code HttpServletRequest} of Weft's servlet container, whose exchange is taken over and whose session runs on
     * a virtual thread of its own, so that this returns at once (the response object is not used).
     *
     * @throws DeploymentException if the request is neither, or {@code sec} is not a valid endpoint
     */
    @Override
    public void upgradeHttpToWebSocket(Object httpServletRequest, Object httpServletResponse,
                                       ServerEndpointConfig sec, Map<String, String> pathParameters)
            throws IOException, DeploymentException {
        EndpointMount mount = registry.unrouted(sec);
        Map<String, String> params = pathParameters == null ? Map.of() : Map.copyOf(pathParameters);
        if (httpServletRequest instanceof HttpExchange exchange) {
            mount.handle(exchange, params, null);
            return;
        }
        ServletRequests.Taken taken;
        try {
            taken = ServletRequests.takeOver(httpServletRequest);
        } catch (LinkageError noServletClasses) {
            taken = null;
        }
        if (taken == null) {
            throw new DeploymentException("upgradeHttpToWebSocket needs an engine HttpExchange or a request of"
                    + " Weft's servlet container");
        }
        ServletRequests.Taken request = taken;
        Thread.ofVirtual().name("weft-jakarta-websocket").start(() -> {
            try {
                mount.handle(request.exchange(), params, request.httpSession());
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, () -> "WebSocket upgrade for " + sec.getPath() + " failed: " + e);
                request.exchange().close();
            }
        });
    }

    @Override
    public long getDefaultAsyncSendTimeout() {
        return asyncSendTimeout;
    }

    @Override
    public void setAsyncSendTimeout(long timeoutmillis) {
        asyncSendTimeout = timeoutmillis;
    }

    @Override
    public long getDefaultMaxSessionIdleTimeout() {
        return maxIdleTimeout;
    }

    @Override
    public void setDefaultMaxSessionIdleTimeout(long timeout) {
        maxIdleTimeout = timeout;
    }

    @Override
    public int getDefaultMaxBinaryMessageBufferSize() {
        return maxBinary;
    }

    @Override
    public void setDefaultMaxBinaryMessageBufferSize(int max) {
        maxBinary = max;
    }

    @Override
    public int getDefaultMaxTextMessageBufferSize() {
        return maxText;
    }

    @Override
    public void setDefaultMaxTextMessageBufferSize(int max) {
        maxText = max;
    }

    @Override
    public Set<Extension> getInstalledExtensions() {
        return engine == null || engine.compression() ? Set.of(new OfferedExtension("permessage-deflate")) : Set.of();
    }

    @Override
    public Session connectToServer(Object annotatedEndpointInstance, URI path) throws DeploymentException {
        throw clientUnsupported();
    }

    @Override
    public Session connectToServer(Class<?> annotatedEndpointClass, URI path) throws DeploymentException {
        throw clientUnsupported();
    }

    @Override
    public Session connectToServer(Endpoint endpointInstance, ClientEndpointConfig cec, URI path)
            throws DeploymentException {
        throw clientUnsupported();
    }

    @Override
    public Session connectToServer(Class<? extends Endpoint> endpointClass, ClientEndpointConfig cec, URI path)
            throws DeploymentException {
        throw clientUnsupported();
    }

    private static DeploymentException clientUnsupported() {
        return new DeploymentException("the Weft container is a server container: the client API is not provided");
    }

    /** Closes every open session with {@code 1001} and stops the idle timer. */
    @Override
    public void close() {
        for (Session s : registry.openSessions()) {
            try {
                s.close(new CloseReason(CloseReason.CloseCodes.GOING_AWAY, "server stopping"));
            } catch (IOException | RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "closing " + s + " failed: " + e);
            }
        }
        scheduler.shutdownNow();
    }
}
