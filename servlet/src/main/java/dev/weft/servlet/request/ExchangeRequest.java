package dev.weft.servlet.request;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.ExchangeAttributes;
import com.sun.net.httpserver.HttpPrincipal;
import dev.weft.servlet.response.HttpDates;
import jakarta.servlet.ServletConnection;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;

/**
 * The part of the container's request that the exchange alone decides and no dispatch changes: header fields,
 * cookies, locales, protocol and connection facts (§3.4, §3.8, §3.9, §3.10), the request id, and the caller
 * identity the engine's authenticator established. {@link WeftRequest} adds everything else.
 */
abstract class ExchangeRequest implements HttpServletRequest {

    final HttpExchange exchange;
    final ConnectionFacts connection;
    final Cookie[] cookies;
    private final String requestId;
    private List<Locale> locales;
    private boolean loggedOut;

    ExchangeRequest(HttpExchange exchange, String requestId) {
        this.exchange = exchange;
        this.connection = new ConnectionFacts(exchange);
        this.requestId = requestId;
        List<String> cookieFields = exchange.getRequestHeaders().get("Cookie");
        this.cookies = cookieFields == null ? new Cookie[0] : CookieParser.parse(cookieFields);
    }

    // ---- header fields

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
    public Locale getLocale() {
        return localesList().get(0);
    }

    @Override
    public Enumeration<Locale> getLocales() {
        return Collections.enumeration(localesList());
    }

    private List<Locale> localesList() {
        if (locales == null) {
            List<String> fields = exchange.getRequestHeaders().get("Accept-Language");
            List<Locale> parsed = fields == null ? List.of() : AcceptLanguage.parse(fields);
            locales = parsed.isEmpty() ? List.of(Locale.getDefault()) : parsed;
        }
        return locales;
    }

    // ---- protocol and connection

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
        return connection.remoteAddress(); // no DNS lookups on the request path
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

    /** The HTTP/2 stream id; empty for HTTP/1.x, which has no request id of its own. */
    @Override
    public String getProtocolRequestId() {
        Object id = exchange.getAttribute(ExchangeAttributes.PROTOCOL_REQUEST_ID);
        return id != null ? id.toString() : "";
    }

    @Override
    public ServletConnection getServletConnection() {
        return connection;
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

    // ---- caller identity (the engine's authenticator; the container has no realm of its own)

    @Override
    public String getAuthType() {
        return getUserPrincipal() == null ? null : HttpServletRequest.BASIC_AUTH;
    }

    @Override
    public String getRemoteUser() {
        Principal p = getUserPrincipal();
        return p == null ? null : p.getName();
    }

    @Override
    public boolean isUserInRole(String role) {
        return false; // no role mapping: authorization belongs to a security filter
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
}
