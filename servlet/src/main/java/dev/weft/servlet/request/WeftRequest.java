package dev.weft.servlet.request;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpPrincipal;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.httpserver.forms.FormFields;
import dev.weft.servlet.context.ServletEntry;
import dev.weft.servlet.context.WeftServletContext;
import dev.weft.servlet.response.HttpDates;
import dev.weft.servlet.response.RequestFacts;
import dev.weft.servlet.response.WeftResponse;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletConnection;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.Part;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Path;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The container's {@link HttpServletRequest} over one engine exchange (Servlet 6.1 §3). The same object serves
 * every dispatch of the exchange: the dispatch layer swaps its {@link DispatchPath}. The body is read one way
 * only — as a stream, a reader, form parameters or parts — and parameters and parts are parsed once, on demand.
 * Used by one thread at a time, as the specification allows (attributes are thread-safe).
 */
public final class WeftRequest implements HttpServletRequest, RequestFacts {

    private enum BodyUse { NONE, STREAM, READER, PARAMETERS, PARTS }

    private final HttpExchange exchange;
    private final WeftServletContext context;
    private final WeftResponse response;
    private final ConnectionFacts connection;
    private final String method;
    private final String rawPath;
    private final String rawQuery;
    private final String requestId;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private final RequestParameters parameters;
    private final Cookie[] cookies;
    private final SessionTracker sessions;
    private volatile DispatchPath dispatch;
    private RequestInput input;
    private BodyUse bodyUse = BodyUse.NONE;
    private BufferedReader reader;
    private String characterEncoding;
    private List<UploadedPart> parts;
    private RequestInputException partsFailure;
    private List<Locale> locales;
    private AsyncHost async;
    private volatile boolean asyncSupported = true;
    private boolean loggedOut;
    private HttpUpgradeHandler upgradeHandler;

    /**
     * @param rawPath the request target's path, still encoded
     * @param first   the path elements of the REQUEST dispatch
     */
    public WeftRequest(HttpExchange exchange, WeftServletContext context, WeftResponse response, String rawPath,
                       DispatchPath first, String requestId) {
        this.exchange = exchange;
        this.context = context;
        this.response = response;
        this.connection = new ConnectionFacts(exchange);
        this.method = exchange.getRequestMethod();
        this.rawPath = rawPath;
        this.rawQuery = exchange.getRequestURI().getRawQuery();
        this.dispatch = first;
        this.requestId = requestId;
        this.parameters = new RequestParameters(rawQuery, context.settings().formLimits());
        List<String> cookieFields = exchange.getRequestHeaders().get("Cookie");
        this.cookies = cookieFields == null ? new Cookie[0] : CookieParser.parse(cookieFields);
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

    /** The container's response for this request. */
    public WeftResponse response() {
        return response;
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
        parameters.push(query, this::bodyFields);
    }

    /** Drops the parameters pushed for the dispatch that ended. */
    public void popParameters() {
        parameters.pop();
    }

    /** Whether reading the body failed because of the client. */
    public boolean clientFailed() {
        return input != null && input.clientFailed();
    }

    /** The request ended: sessions released, temporary upload files removed. */
    public void recycle() {
        sessions.release();
        if (parts != null) {
            MultipartParts.deleteAll(parts);
        }
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
        for (String tls : new String[] {ConnectionFacts.CERTIFICATES, ConnectionFacts.CIPHER_SUITE,
            ConnectionFacts.KEY_SIZE, ConnectionFacts.SSL_SESSION_ID, ConnectionFacts.SECURE_PROTOCOL}) {
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

    // ---- body and encodings

    @Override
    public String getCharacterEncoding() {
        if (characterEncoding != null) {
            return characterEncoding;
        }
        String type = getContentType();
        if (type != null) {
            String cs = dev.weft.servlet.response.ContentType.parse(type).charset();
            if (cs != null) {
                return cs;
            }
        }
        return context.getRequestCharacterEncoding();
    }

    @Override
    public void setCharacterEncoding(String encoding) throws UnsupportedEncodingException {
        if (bodyUse != BodyUse.NONE) {
            return; // too late: the body has been read with the previous encoding
        }
        if (encoding != null) {
            try {
                Charset.forName(encoding);
            } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
                throw new UnsupportedEncodingException(encoding);
            }
        }
        this.characterEncoding = encoding;
    }

    @Override
    public void setCharacterEncoding(Charset encoding) {
        if (bodyUse == BodyUse.NONE) {
            this.characterEncoding = encoding == null ? null : encoding.name();
        }
    }

    /** The charset the body is decoded in: the request's, else ISO-8859-1 (§3.12). */
    private Charset bodyCharset() {
        String name = getCharacterEncoding();
        if (name == null) {
            return StandardCharsets.ISO_8859_1;
        }
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new RequestInputException(415, "unsupported request charset " + name, e);
        }
    }

    @Override
    public int getContentLength() {
        long n = getContentLengthLong();
        return n > Integer.MAX_VALUE ? -1 : (int) n;
    }

    @Override
    public long getContentLengthLong() {
        String v = exchange.getRequestHeaders().getFirst("Content-Length");
        if (v == null) {
            return -1;
        }
        try {
            return Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public String getContentType() {
        return exchange.getRequestHeaders().getFirst("Content-Type");
    }

    private RequestInput input() {
        if (input == null) {
            Headers h = exchange.getRequestHeaders();
            boolean knownEmpty = getContentLengthLong() == 0
                    || !h.containsKey("Content-Length") && !h.containsKey("Transfer-Encoding")
                    && !exchange.getProtocol().startsWith("HTTP/2");
            input = new RequestInput(exchange.getRequestBody(), knownEmpty, context, this::isAsyncStarted);
        }
        return input;
    }

    @Override
    public ServletInputStream getInputStream() {
        if (bodyUse == BodyUse.READER) {
            throw new IllegalStateException("getReader() has been called on this request");
        }
        if (bodyUse == BodyUse.NONE) {
            bodyUse = BodyUse.STREAM;
        }
        return input();
    }

    @Override
    public BufferedReader getReader() throws IOException {
        if (bodyUse == BodyUse.STREAM) {
            throw new IllegalStateException("getInputStream() has been called on this request");
        }
        if (reader == null) {
            Charset charset;
            try {
                charset = bodyCharset();
            } catch (RequestInputException e) {
                throw new UnsupportedEncodingException(getCharacterEncoding());
            }
            reader = new BufferedReader(new InputStreamReader(input(), charset));
            bodyUse = BodyUse.READER;
        }
        return reader;
    }

    // ---- parameters

    private Map<String, List<String>> params() {
        return parameters.current(this::bodyFields);
    }

    /** The form part of the parameters (§3.1.1): a POSTed urlencoded body, or a multipart body's text parts. */
    private List<FormFields.Field> bodyFields() throws Exception {
        if (!method.equals("POST") || bodyUse != BodyUse.NONE && bodyUse != BodyUse.PARTS) {
            return List.of();
        }
        String type = getContentType();
        String media = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (media.equals("application/x-www-form-urlencoded") && bodyUse == BodyUse.NONE) {
            bodyUse = BodyUse.PARAMETERS;
            return FormDecoder.read(input(), bodyCharset(), context.settings().formLimits());
        }
        ServletEntry servlet = dispatch.servlet();
        if (media.equals("multipart/form-data") && (parts != null
                || servlet != null && servlet.multipartConfig() != null)) {
            List<FormFields.Field> fields = new ArrayList<>();
            for (Part p : getParts()) {
                if (p.getSubmittedFileName() == null && p instanceof UploadedPart part) {
                    String cs = p.getContentType() == null ? null
                            : dev.weft.servlet.response.ContentType.parse(p.getContentType()).charset();
                    Charset charset = cs == null ? bodyCharset() : Charset.forName(cs);
                    fields.add(new FormFields.Field(p.getName(), part.text(charset)));
                }
            }
            return fields;
        }
        return List.of();
    }

    @Override
    public String getParameter(String name) {
        List<String> values = params().get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public Enumeration<String> getParameterNames() {
        return Collections.enumeration(new ArrayList<>(params().keySet()));
    }

    @Override
    public String[] getParameterValues(String name) {
        List<String> values = params().get(name);
        return values == null ? null : values.toArray(new String[0]);
    }

    @Override
    public Map<String, String[]> getParameterMap() {
        return RequestParameters.asArrays(params());
    }

    // ---- multipart

    @Override
    public Collection<Part> getParts() throws IOException, ServletException {
        if (partsFailure != null) {
            throw partsFailure; // the same answer on every call, as during an error dispatch
        }
        if (parts == null) {
            ServletEntry servlet = dispatch.servlet();
            MultipartConfigElement config = servlet == null ? null : servlet.multipartConfig();
            if (config == null) {
                throw new IllegalStateException("no multipart configuration for servlet "
                        + (servlet == null ? "(none)" : servlet.getName()));
            }
            String type = getContentType();
            if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
                throw new ServletException("the request is not multipart/form-data");
            }
            if (bodyUse != BodyUse.NONE && bodyUse != BodyUse.PARAMETERS) {
                throw new IllegalStateException("the request body has been read already");
            }
            bodyUse = BodyUse.PARTS;
            Path location = context.tempDir();
            if (config.getLocation() != null && !config.getLocation().isEmpty()) {
                location = location.resolve(config.getLocation());
            }
            try {
                parts = MultipartParts.read(input(), type, getContentLengthLong(), config, location);
            } catch (RequestInputException e) {
                partsFailure = e;
                throw e;
            }
        }
        return Collections.unmodifiableList(new ArrayList<>(parts));
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

    // ---- trailer fields

    @Override
    public boolean isTrailerFieldsReady() {
        return input().endReached() || input().isFinished();
    }

    @Override
    public Map<String, String> getTrailerFields() {
        if (!isTrailerFieldsReady()) {
            throw new IllegalStateException("the request body has not been read to its end");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        if (exchange.getAttribute(ExchangeAttributes.REQUEST_TRAILERS) instanceof Headers trailers) {
            trailers.forEach((k, v) -> fields.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
        }
        return fields;
    }

    // ---- connection facts

    @Override
    public String getProtocol() {
        return exchange.getProtocol();
    }

    @Override
    public String getScheme() {
        return connection.scheme();
    }

    @Override
    public String getServerName() {
        return connection.serverName();
    }

    @Override
    public int getServerPort() {
        return connection.serverPort();
    }

    @Override
    public String getRemoteAddr() {
        return connection.remoteAddress();
    }

    @Override
    public String getRemoteHost() {
        return connection.remoteAddress();
    }

    @Override
    public int getRemotePort() {
        return connection.remotePort();
    }

    @Override
    public String getLocalName() {
        return connection.localName();
    }

    @Override
    public String getLocalAddr() {
        return connection.localAddress();
    }

    @Override
    public int getLocalPort() {
        return connection.localPort();
    }

    @Override
    public boolean isSecure() {
        return connection.isSecure();
    }

    @Override
    public String getRequestId() {
        return requestId;
    }

    @Override
    public String getProtocolRequestId() {
        return "";
    }

    @Override
    public ServletConnection getServletConnection() {
        return connection;
    }

    // ---- locales

    @Override
    public Locale getLocale() {
        return getLocalesList().get(0);
    }

    @Override
    public Enumeration<Locale> getLocales() {
        return Collections.enumeration(getLocalesList());
    }

    private List<Locale> getLocalesList() {
        if (locales == null) {
            List<String> fields = exchange.getRequestHeaders().get("Accept-Language");
            List<Locale> parsed = fields == null ? List.of() : AcceptLanguage.parse(fields);
            locales = parsed.isEmpty() ? List.of(Locale.getDefault()) : parsed;
        }
        return locales;
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

    @Override
    public DispatcherType getDispatcherType() {
        return dispatch.type();
    }

    // ---- HTTP

    @Override
    public String getAuthType() {
        return getUserPrincipal() == null ? null : HttpServletRequest.BASIC_AUTH;
    }

    @Override
    public Cookie[] getCookies() {
        if (cookies.length == 0) {
            return null;
        }
        Cookie[] copy = new Cookie[cookies.length];
        for (int i = 0; i < cookies.length; i++) {
            copy[i] = (Cookie) cookies[i].clone();
        }
        return copy;
    }

    @Override
    public long getDateHeader(String name) {
        String v = getHeader(name);
        if (v == null) {
            return -1;
        }
        long t = HttpDates.parse(v);
        if (t < 0) {
            throw new IllegalArgumentException("not an HTTP date: " + v);
        }
        return t;
    }

    @Override
    public String getHeader(String name) {
        return name == null ? null : exchange.getRequestHeaders().getFirst(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
        List<String> values = name == null ? null : exchange.getRequestHeaders().get(name);
        return Collections.enumeration(values == null ? List.of() : values);
    }

    @Override
    public Enumeration<String> getHeaderNames() {
        return Collections.enumeration(new ArrayList<>(exchange.getRequestHeaders().keySet()));
    }

    @Override
    public int getIntHeader(String name) {
        String v = getHeader(name);
        return v == null ? -1 : Integer.parseInt(v.strip());
    }

    @Override
    public HttpServletMapping getHttpServletMapping() {
        return dispatch.mapping();
    }

    @Override
    public String getMethod() {
        return dispatch.type() == DispatcherType.ERROR ? "GET" : method;
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
    public String getContextPath() {
        return context.getContextPath();
    }

    @Override
    public String getQueryString() {
        return dispatch.queryString();
    }

    @Override
    public String getRemoteUser() {
        Principal p = getUserPrincipal();
        return p == null ? null : p.getName();
    }

    @Override
    public boolean isUserInRole(String role) {
        return false; // the container has no role mapping: authorization belongs to a security filter
    }

    @Override
    public Principal getUserPrincipal() {
        if (loggedOut) {
            return null;
        }
        HttpPrincipal p = exchange.getPrincipal();
        return p;
    }

    @Override
    public String getRequestedSessionId() {
        return sessions.requestedId();
    }

    @Override
    public String getRequestURI() {
        return dispatch.requestUri();
    }

    @Override
    public StringBuffer getRequestURL() {
        StringBuffer url = new StringBuffer(64);
        String scheme = getScheme();
        int port = getServerPort();
        url.append(scheme).append("://").append(getServerName());
        if (!(scheme.equals("http") && port == 80 || scheme.equals("https") && port == 443)) {
            url.append(':').append(port);
        }
        return url.append(getRequestURI());
    }

    @Override
    public String getServletPath() {
        return dispatch.servletPath();
    }

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

    @Override
    public boolean authenticate(HttpServletResponse res) throws IOException {
        if (getUserPrincipal() != null) {
            return true;
        }
        res.sendError(HttpServletResponse.SC_UNAUTHORIZED);
        return false;
    }

    @Override
    public void login(String username, String password) throws ServletException {
        throw new ServletException("no login mechanism is configured in the container: use a security filter");
    }

    @Override
    public void logout() {
        loggedOut = true;
    }

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

    /** The handler of a requested upgrade, or null. */
    public HttpUpgradeHandler upgradeHandler() {
        return upgradeHandler;
    }

    /**
     * Hands the connection to the upgrade handler, once the {@code 101} response has been sent.
     *
     * @return the connection now owned by the handler
     */
    public UpgradeConnection startUpgrade() throws Exception {
        UpgradeConnection connection = new UpgradeConnection(exchange, upgradeHandler, context);
        context.runAsApplication(() -> upgradeHandler.init(connection));
        return connection;
    }
}
