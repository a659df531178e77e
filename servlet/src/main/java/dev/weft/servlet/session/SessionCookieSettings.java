package dev.weft.servlet.session;

import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.http.Cookie;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;

/**
 * The context's {@link SessionCookieConfig}: the session cookie's name ({@code JSESSIONID} by default) and its
 * attributes, which may be changed only until the context is initialized. {@code HttpOnly} is on by default;
 * {@code Secure} is added for requests over TLS even when not configured. Thread-safe.
 */
public final class SessionCookieSettings implements SessionCookieConfig {

    private static final String DOMAIN = "Domain";
    private static final String PATH = "Path";
    private static final String SECURE = "Secure";
    private static final String HTTP_ONLY = "HttpOnly";
    private static final String MAX_AGE = "Max-Age";

    private final BooleanSupplier initialized;
    private final Map<String, String> attributes = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private volatile String name = "JSESSIONID";

    /** @param initialized whether the owning context is initialized (then setters throw) */
    public SessionCookieSettings(BooleanSupplier initialized) {
        this.initialized = initialized;
        attributes.put(HTTP_ONLY, "");
    }

    private void checkConfigurable() {
        if (initialized.getAsBoolean()) {
            throw new IllegalStateException("the session cookie can only be configured before the context is initialized");
        }
    }

    @Override
    public void setName(String name) {
        checkConfigurable();
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("session cookie name must not be empty");
        }
        new Cookie(name, ""); // validates the name as the Cookie class does
        this.name = name;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public void setDomain(String domain) {
        put(DOMAIN, domain);
    }

    @Override
    public String getDomain() {
        return getAttribute(DOMAIN);
    }

    @Override
    public void setPath(String path) {
        put(PATH, path);
    }

    @Override
    public String getPath() {
        return getAttribute(PATH);
    }

    @Override
    @Deprecated(since = "Servlet 6.0", forRemoval = true)
    @SuppressWarnings("removal")
    public void setComment(String comment) {
        checkConfigurable(); // RFC 6265 cookies have no comment: ignored, as the API says
    }

    @Override
    @Deprecated(since = "Servlet 6.0", forRemoval = true)
    @SuppressWarnings("removal")
    public String getComment() {
        return null;
    }

    @Override
    public void setHttpOnly(boolean httpOnly) {
        put(HTTP_ONLY, httpOnly ? "" : null);
    }

    @Override
    public boolean isHttpOnly() {
        return getAttribute(HTTP_ONLY) != null;
    }

    @Override
    public void setSecure(boolean secure) {
        put(SECURE, secure ? "" : null);
    }

    @Override
    public boolean isSecure() {
        return getAttribute(SECURE) != null;
    }

    @Override
    public void setMaxAge(int maxAge) {
        put(MAX_AGE, maxAge < 0 ? null : String.valueOf(maxAge));
    }

    @Override
    public int getMaxAge() {
        String v = getAttribute(MAX_AGE);
        return v == null ? -1 : Integer.parseInt(v);
    }

    @Override
    public void setAttribute(String name, String value) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("cookie attribute name must not be empty");
        }
        new Cookie("x", "").setAttribute(name, value); // validates the name and Max-Age as Cookie does
        put(name, value);
    }

    @Override
    public String getAttribute(String name) {
        synchronized (attributes) {
            return attributes.get(name);
        }
    }

    @Override
    public Map<String, String> getAttributes() {
        synchronized (attributes) {
            return Collections.unmodifiableMap(new TreeMap<>(attributes));
        }
    }

    private void put(String name, String value) {
        checkConfigurable();
        synchronized (attributes) {
            if (value == null) {
                attributes.remove(name);
            } else {
                attributes.put(name, value);
            }
        }
    }

    /**
     * The cookie carrying {@code sessionId}: this configuration's attributes, {@code Path} defaulting to the
     * context path (or {@code /}), and {@code Secure} when the request came over TLS.
     */
    public Cookie cookieFor(String sessionId, String contextPath, boolean secureRequest) {
        Cookie cookie = new Cookie(name, sessionId);
        getAttributes().forEach(cookie::setAttribute);
        if (cookie.getPath() == null) {
            cookie.setPath(contextPath.isEmpty() ? "/" : contextPath);
        }
        if (secureRequest) {
            cookie.setSecure(true);
        }
        return cookie;
    }

    /** A cookie that makes the client forget the session cookie ({@code Max-Age=0}). */
    public Cookie expiredCookie(String contextPath, boolean secureRequest) {
        Cookie cookie = cookieFor("", contextPath, secureRequest);
        cookie.setMaxAge(0);
        return cookie;
    }
}
