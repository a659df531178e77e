package dev.weft.httpserver.proxy;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.httpserver.server.WeftExchanges;
import dev.weft.httpserver.server.WeftServer;
import dev.weft.httpserver.stats.ServerStats;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Objects;

/**
 * A forward proxy as an {@link HttpHandler} on a Weft server: forwards absolute-form requests
 * ({@code GET http://host/path HTTP/1.1}) to their origin and tunnels {@code CONNECT host:port} (HTTP/1.1, and
 * HTTP/2 CONNECT streams). Mount it on {@code "/"}: {@code CONNECT} targets route there, and absolute-form
 * targets route by their path.
 *
 * <pre>{@code
 * ProxyConfig config = ProxyConfig.builder()
 *         .allowedHosts("*.example.com", "10.1.0.0/16")
 *         .authenticator(new BasicAuthenticator("proxy") {
 *             public boolean checkCredentials(String user, String password) { ... }
 *         })
 *         .build();
 * server.createContext("/", new ProxyHandler(config));
 * }</pre>
 *
 * <p>Authorization: the configured JDK {@link Authenticator} (such as {@code BasicAuthenticator}, which speaks
 * {@code 401}/{@code Authorization}) is applied to the proxy's fields: it reads {@code Proxy-Authorization} as
 * if it were {@code Authorization}, and its {@code 401} with {@code WWW-Authenticate} goes out as {@code 407}
 * with {@code Proxy-Authenticate} (RFC 9110 §11.7). Set it here, not on the context (the context's
 * authenticator would answer 401). {@code Proxy-Authorization} is never forwarded.
 *
 * <p>Requests in origin-form ({@code GET /path}, every non-CONNECT HTTP/2 request, and extended CONNECT
 * with a {@code :protocol}) are not proxy requests: they go to the {@code originFormHandler} if one was given, else get {@code 400}.
 */
public final class ProxyHandler implements HttpHandler {

    private static final System.Logger LOG = System.getLogger(ProxyHandler.class.getName());

    private final ProxyConfig config;
    private final HttpHandler originFormHandler;
    private final TargetPolicy policy;
    private final Forwarder forwarder;
    private final Tunnel tunnel;

    /** A proxy that answers origin-form requests with {@code 400}. */
    public ProxyHandler(ProxyConfig config) {
        this(config, null);
    }

    /**
     * @param originFormHandler serves requests that are not proxy requests (the server's own pages), or
     *                          {@code null} for {@code 400}
     */
    public ProxyHandler(ProxyConfig config, HttpHandler originFormHandler) {
        this.config = Objects.requireNonNull(config, "config");
        this.originFormHandler = originFormHandler;
        this.policy = new TargetPolicy(config);
        this.forwarder = new Forwarder(config);
        this.tunnel = new Tunnel(config);
    }

    /** The configuration this handler runs with. */
    public ProxyConfig config() {
        return config;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        // An extended CONNECT (RFC 8441, e.g. a WebSocket over HTTP/2) names a protocol, not a tunnel.
        boolean connect = method.equals("CONNECT")
                && exchange.getAttribute(ExchangeAttributes.CONNECT_PROTOCOL) == null;
        URI uri = exchange.getRequestURI();
        if (!connect && uri.getScheme() == null) {
            if (originFormHandler != null) {
                originFormHandler.handle(exchange);
            } else {
                ErrorResponses.send(exchange, 400, "not a proxy request: send an absolute-form target or CONNECT");
            }
            return;
        }
        ServerStats stats = stats(exchange);
        if (!authorized(exchange, stats)) {
            return;
        }
        if (HopByHop.viaNames(exchange.getRequestHeaders().get("Via"), config.viaName())) {
            LOG.log(Level.INFO, () -> "proxy loop: " + method + " " + uri + " already passed " + config.viaName());
            ErrorResponses.send(exchange, 508, "loop detected: the request has already passed this proxy");
            return;
        }
        if (!connect) {
            if (!uri.getScheme().equalsIgnoreCase("http")) {
                ErrorResponses.send(exchange, 501, "only http targets are forwarded; use CONNECT for " + uri.getScheme());
                return;
            }
            if (answeredLocally(exchange, method)) {
                return;
            }
        }
        String host = uri.getHost();
        int port = uri.getPort() < 0 ? 80 : uri.getPort();
        if (host == null || host.isEmpty()) {
            ErrorResponses.send(exchange, 400, "target without a host");
            return;
        }
        List<InetSocketAddress> targets;
        try {
            targets = policy.resolve(host, port, connect);
        } catch (TargetPolicy.Denied e) {
            stats.proxyDenied();
            LOG.log(Level.DEBUG, () -> "proxy denied " + method + " " + uri + " from " + exchange.getRemoteAddress()
                    + ": " + e.getMessage());
            ErrorResponses.send(exchange, 403, "forbidden: " + e.getMessage());
            return;
        } catch (UnknownHostException e) {
            Forwarder.upstreamFailed(exchange, stats, 502, "cannot resolve " + host, e);
            return;
        }
        if (isThisServer(exchange, targets)) {
            LOG.log(Level.INFO, () -> "proxy loop: " + method + " " + uri + " targets this server");
            ErrorResponses.send(exchange, 508, "loop detected: the target is this proxy");
            return;
        }
        String authority = uri.getRawAuthority();
        if (connect) {
            tunnel.open(exchange, authority, targets, stats);
        } else {
            forwarder.forward(exchange, uri, targets, stats);
        }
    }

    /** Runs the authorization hook; answers 407 (or the hook's own status) and returns false when it fails. */
    private boolean authorized(HttpExchange exchange, ServerStats stats) throws IOException {
        Authenticator hook = config.authenticator();
        if (hook == null) {
            return true;
        }
        ProxyAuthExchange view = new ProxyAuthExchange(exchange);
        Authenticator.Result result = hook.authenticate(view);
        if (result instanceof Authenticator.Success success) {
            WeftExchanges.transport(exchange).authenticated(success.getPrincipal().getUsername());
            return true;
        }
        int status = result instanceof Authenticator.Retry r ? r.getResponseCode()
                : result instanceof Authenticator.Failure f ? f.getResponseCode() : 500;
        if (status == 401) {
            status = 407;
        }
        Headers out = exchange.getResponseHeaders();
        view.challenge().forEach((name, values) ->
                out.put(name.equalsIgnoreCase("WWW-Authenticate") ? "Proxy-Authenticate" : name, values));
        if (status == 407 && !out.containsKey("Proxy-Authenticate")) {
            // RFC 9110 §15.5.8: a 407 MUST carry a challenge.
            out.set("Proxy-Authenticate", "Basic realm=\"proxy\"");
        }
        stats.proxyDenied();
        boolean presented = exchange.getRequestHeaders().containsKey("Proxy-Authorization");
        LOG.log(Level.DEBUG, () -> "proxy authorization " + (presented ? "failed" : "required") + " for "
                + exchange.getRemoteAddress());
        ErrorResponses.send(exchange, status, status == 407 ? "proxy authentication required" : "not authorized");
        return false;
    }

    /** {@code TRACE} is refused; {@code OPTIONS} with {@code Max-Forwards: 0} is answered here (RFC 9110 §7.6.2). */
    private static boolean answeredLocally(HttpExchange exchange, String method) throws IOException {
        if (method.equals("TRACE")) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD, POST, PUT, DELETE, OPTIONS, PATCH, CONNECT");
            ErrorResponses.send(exchange, 405, "TRACE is not forwarded");
            return true;
        }
        String maxForwards = exchange.getRequestHeaders().getFirst("Max-Forwards");
        if (method.equals("OPTIONS") && maxForwards != null && Forwarder.parseOr(maxForwards, 1) <= 0) {
            exchange.sendResponseHeaders(200, -1);
            return true;
        }
        return false;
    }

    /** Whether one of {@code targets} is the address and port this server listens on. */
    private static boolean isThisServer(HttpExchange exchange, List<InetSocketAddress> targets) {
        InetSocketAddress local = exchange.getLocalAddress();
        HttpServer server = exchange.getHttpContext().getServer();
        InetSocketAddress bound = server.getAddress();
        for (InetSocketAddress t : targets) {
            if (t.getPort() != local.getPort() && (bound == null || t.getPort() != bound.getPort())) {
                continue;
            }
            InetAddress a = t.getAddress();
            if (a.equals(local.getAddress()) || bound != null && a.equals(bound.getAddress())) {
                return true;
            }
            if (bound != null && bound.getAddress().isAnyLocalAddress() && (a.isLoopbackAddress() || isLocal(a))) {
                return true;
            }
        }
        return false;
    }

    private static boolean isLocal(InetAddress a) {
        try {
            return NetworkInterface.getByInetAddress(a) != null;
        } catch (SocketException e) {
            return false;
        }
    }

    /** The live counters of the Weft server {@code exchange} belongs to. */
    static ServerStats stats(HttpExchange exchange) {
        if (exchange.getHttpContext().getServer() instanceof WeftServer weft) {
            return weft.liveStats();
        }
        throw new IllegalStateException("ProxyHandler runs on Weft servers only");
    }
}
