package dev.weft.servlet.request;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.servlet.context.WeftServletContext;
import dev.weft.servlet.response.RequestFacts;
import dev.weft.servlet.response.WeftResponse;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.Part;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The container's {@link jakarta.servlet.http.HttpServletRequest} over one engine exchange (Servlet 6.1 §3). The
 * same object serves every dispatch of the exchange: the dispatch layer swaps its {@link DispatchPath}. The body
 * is the {@link RequestBody}'s, sessions the {@link SessionTracker}'s, the asynchronous state the
 * {@link AsyncHost}'s; what the exchange alone decides comes from {@link ExchangeRequest}. Used by one thread at
 * a time, as the specification allows (attributes are thread-safe).
 */
public final class WeftRequest extends ExchangeRequest implements RequestFacts {

    private static final String[] TLS_ATTRIBUTES = {ConnectionFacts.CERTIFICATES, ConnectionFacts.CIPHER_SUITE,
        ConnectionFacts.KEY_SIZE, ConnectionFacts.SSL_SESSION_ID, ConnectionFacts.SECURE_PROTOCOL};

    private final WeftServletContext context;
    private final WeftResponse response;
    private final String method;
    /** Sized for the attributes a framework such as Spring MVC sets on every request, so it never grows. */
    private final Map<String, Object> attributes = new ConcurrentHashMap<>(32);
    private final RequestBody body;
    private final SessionTracker sessions;
    private volatile DispatchPath dispatch;
    private AsyncHost async;
    private volatile boolean asyncSupported = true;
    private HttpUpgradeHandler upgradeHandler;
    private boolean takenOver;

    /**
     * @param rawPath the request target's path, still encoded
     * @param first   the path elements of the REQUEST dispatch
     */
    public WeftRequest(HttpExchange exchange, WeftServletContext context, WeftResponse response, String rawPath,
                       DispatchPath first, String requestId) {
        super(exchange, requestId);
        this.context = context;
        this.response = response;
        this.method = exchange.getRequestMethod();
        this.dispatch = first;
        this.body = new RequestBody(exchange, context, this::isAsyncStarted, () -> dispatch.servlet());
        this.sessions = new SessionTracker(context, response, cookies, rawPath, connection);
        response.request(this);
    }

    // ---- container side

    /** The path elements of the current dispatch. */
    public DispatchPath dispatch() {
        return dispatch;
    }

    /** Switches to another dispatch's path elements (the dispatch layer restores the previous one after). */
    public void dispatch(DispatchPath path) {
        this.dispatch = path;
    }

    /** The engine exchange. */
    public HttpExchange exchange() {
        return exchange;
    }

    /** Connects the async layer. */
    public void asyncHost(AsyncHost host) {
        this.async = host;
    }

    /** Async support narrows as the request passes a filter or servlet without it (§2.3.3.3). */
    public void asyncSupported(boolean supported) {
        this.asyncSupported = supported;
    }

    /** Sets an attribute as the container, without attribute events; null removes it. */
    public void setContainerAttribute(String name, Object value) {
        if (value == null) {
            attributes.remove(name);
        } else {
            attributes.put(name, value);
        }
    }

    /** Puts a dispatcher's query parameters in front for the length of a dispatch. */
    public void pushParameters(String query) {
        body.pushParameters(query);
    }

    /** Drops the parameters pushed for the dispatch that ended. */
    public void popParameters() {
        body.popParameters();
    }

    /** Whether reading the body failed because of the client. */
    public boolean clientFailed() {
        return body.clientFailed();
    }

    /**
     * The application is done with the request: temporary upload files are removed (before the response is
     * completed, so a client that has the response finds none left).
     */
    public void releaseUploads() {
        body.recycle();
    }

    /** The request ended: sessions released, temporary upload files removed. */
    public void recycle() {
        sessions.release();
        body.recycle();
    }

    // ---- RequestFacts (for the response)

    @Override
    public boolean isHead() {
        return method.equals("HEAD");
    }

    @Override
    public boolean trailersAllowed() {
        return !exchange.getProtocol().equals("HTTP/1.0");
    }

    @Override
    public String scheme() {
        return getScheme();
    }

    @Override
    public String serverName() {
        return getServerName();
    }

    @Override
    public int serverPort() {
        return getServerPort();
    }

    @Override
    public String requestUri() {
        return getRequestURI();
    }

    @Override
    public String sessionIdForUrls() {
        return sessions.idForUrls();
    }

    @Override
    public String sessionUrlParameter() {
        return sessions.urlParameter();
    }

    @Override
    public boolean asyncStarted() {
        return isAsyncStarted();
    }

    @Override
    public void restoreSessionCookie() {
        sessions.restoreCookie();
    }

    // ---- attributes

    @Override
    public Object getAttribute(String name) {
        Objects.requireNonNull(name, "attribute name");
        Object v = attributes.get(name);
        if (v == null && name.startsWith("jakarta.servlet.request.")) {
            return connection.tlsAttribute(name);
        }
        return v;
    }

    @Override
    public Enumeration<String> getAttributeNames() {
        Set<String> names = new HashSet<>(attributes.keySet());
        for (String tls : TLS_ATTRIBUTES) {
            if (connection.tlsAttribute(tls) != null) {
                names.add(tls);
            }
        }
        return Collections.enumeration(names);
    }

    @Override
    public void setAttribute(String name, Object o) {
        Objects.requireNonNull(name, "attribute name");
        if (o == null) {
            removeAttribute(name);
            return;
        }
        Object previous = attributes.put(name, o);
        context.listeners().requestAttribute(context, this, name, o, previous);
    }

    @Override
    public void removeAttribute(String name) {
        Objects.requireNonNull(name, "attribute name");
        Object previous = attributes.remove(name);
        if (previous != null) {
            context.listeners().requestAttribute(context, this, name, null, previous);
        }
    }

    // ---- body, parameters, parts, trailers

    @Override
    public String getCharacterEncoding() {
        return body.characterEncoding();
    }

    @Override
    public void setCharacterEncoding(String encoding) throws UnsupportedEncodingException {
        body.characterEncoding(encoding);
    }

    @Override
    public void setCharacterEncoding(Charset encoding) {
        try {
            body.characterEncoding(encoding == null ? null : encoding.name());
        } catch (UnsupportedEncodingException e) {
            throw new IllegalArgumentException(e); // a Charset is always supported
        }
    }

    @Override
    public ServletInputStream getInputStream() {
        return body.inputStream();
    }

    @Override
    public BufferedReader getReader() throws IOException {
        return body.reader();
    }

    @Override
    public String getParameter(String name) {
        List<String> values = body.parameters().get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public Enumeration<String> getParameterNames() {
        return Collections.enumeration(new ArrayList<>(body.parameters().keySet()));
    }

    @Override
    public String[] getParameterValues(String name) {
        List<String> values = body.parameters().get(name);
        return values == null ? null : values.toArray(new String[0]);
    }

    @Override
    public Map<String, String[]> getParameterMap() {
        return body.parameterMap();
    }

    @Override
    public Collection<Part> getParts() throws IOException, ServletException {
        return body.parts();
    }

    @Override
    public Part getPart(String name) throws IOException, ServletException {
        for (Part p : getParts()) {
            if (p.getName().equals(name)) {
                return p;
            }
        }
        return null;
    }

    @Override
    public boolean isTrailerFieldsReady() {
        return body.trailerFieldsReady();
    }

    @Override
    public Map<String, String> getTrailerFields() {
        return body.trailerFields();
    }

    // ---- path elements of the current dispatch

    @Override
    public String getMethod() {
        return dispatch.type() == DispatcherType.ERROR ? "GET" : method;
    }

    @Override
    public String getRequestURI() {
        return dispatch.requestUri();
    }

    @Override
    public String getContextPath() {
        return context.getContextPath();
    }

    @Override
    public String getServletPath() {
        return dispatch.servletPath();
    }

    @Override
    public String getPathInfo() {
        return dispatch.pathInfo();
    }

    @Override
    public String getPathTranslated() {
        String info = dispatch.pathInfo();
        return info == null ? null : context.getRealPath(info);
    }

    @Override
    public String getQueryString() {
        return dispatch.queryString();
    }

    @Override
    public HttpServletMapping getHttpServletMapping() {
        return dispatch.mapping();
    }

    @Override
    public DispatcherType getDispatcherType() {
        return dispatch.type();
    }

    // ---- dispatching and async

    @Override
    public RequestDispatcher getRequestDispatcher(String path) {
        if (path == null) {
            return null;
        }
        if (path.startsWith("/")) {
            return context.getRequestDispatcher(path);
        }
        DispatchPath d = dispatch;
        String current = d.servletPath() + (d.pathInfo() == null ? "" : d.pathInfo());
        String base = current.substring(0, current.lastIndexOf('/') + 1);
        String resolved = RelativePaths.resolve(base, path);
        return resolved == null ? null : context.getRequestDispatcher(resolved);
    }

    @Override
    public ServletContext getServletContext() {
        return context;
    }

    @Override
    public AsyncContext startAsync() {
        return startAsync(this, response, true);
    }

    @Override
    public AsyncContext startAsync(ServletRequest servletRequest, ServletResponse servletResponse) {
        Objects.requireNonNull(servletRequest, "request");
        Objects.requireNonNull(servletResponse, "response");
        return startAsync(servletRequest, servletResponse, false);
    }

    private AsyncContext startAsync(ServletRequest req, ServletResponse res, boolean noArguments) {
        if (!asyncSupported) {
            throw new IllegalStateException("a filter or servlet of this request does not support async processing");
        }
        if (async == null) {
            throw new IllegalStateException("asynchronous processing is not available for this request");
        }
        return async.startAsync(req, res, noArguments);
    }

    @Override
    public boolean isAsyncStarted() {
        return async != null && async.isAsyncStarted();
    }

    @Override
    public boolean isAsyncSupported() {
        return asyncSupported;
    }

    @Override
    public AsyncContext getAsyncContext() {
        if (async == null) {
            throw new IllegalStateException("the request is not in asynchronous mode");
        }
        return async.asyncContext();
    }

    // ---- sessions

    @Override
    public HttpSession getSession(boolean create) {
        return sessions.session(create);
    }

    @Override
    public HttpSession getSession() {
        return getSession(true);
    }

    @Override
    public String changeSessionId() {
        return sessions.changeId();
    }

    @Override
    public String getRequestedSessionId() {
        return sessions.requestedId();
    }

    @Override
    public boolean isRequestedSessionIdValid() {
        return sessions.requestedIdValid();
    }

    @Override
    public boolean isRequestedSessionIdFromCookie() {
        return sessions.fromCookie();
    }

    @Override
    public boolean isRequestedSessionIdFromURL() {
        return sessions.fromUrl();
    }

    // ---- protocol upgrade

    /**
     * Prepares a protocol upgrade (§2.3.3.5): the handler is created now and gets the connection once the
     * response ({@code 101}, with the headers the application sets) has been sent after the request's dispatch.
     * HTTP/1.1 only: HTTP/2 has no upgrade (RFC 9113 §8.6).
     */
    @Override
    public <T extends HttpUpgradeHandler> T upgrade(Class<T> handlerClass) throws ServletException {
        Objects.requireNonNull(handlerClass, "handler class");
        if (!exchange.getProtocol().equals("HTTP/1.1")) {
            throw new ServletException("protocol upgrade needs HTTP/1.1, the request is " + exchange.getProtocol());
        }
        if (upgradeHandler != null) {
            throw new IllegalStateException("upgrade was called already");
        }
        T handler;
        try {
            handler = handlerClass.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new ServletException("cannot instantiate " + handlerClass.getName(), e);
        }
        upgradeHandler = handler;
        response.setStatus(HttpServletResponse.SC_SWITCHING_PROTOCOLS);
        return handler;
    }

    /**
     * Hands the exchange to the engine's own protocol layer (a WebSocket container): from now on the container
     * neither answers nor closes it.
     */
    public HttpExchange takeOverExchange() {
        if (upgradeHandler != null) {
            throw new IllegalStateException("upgrade was called already");
        }
        takenOver = true;
        return exchange;
    }

    /** Whether {@link #takeOverExchange()} was called. */
    public boolean exchangeTakenOver() {
        return takenOver;
    }

    /** The handler of a requested upgrade, or null. */
    public HttpUpgradeHandler upgradeHandler() {
        return upgradeHandler;
    }

    /** Hands the connection to the upgrade handler, once the {@code 101} response has been sent. */
    public void startUpgrade() throws Exception {
        UpgradeConnection c = new UpgradeConnection(exchange, upgradeHandler, context);
        context.runAsApplication(() -> upgradeHandler.init(c));
    }
}
