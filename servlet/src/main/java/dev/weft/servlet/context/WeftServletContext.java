package dev.weft.servlet.context;

import dev.weft.servlet.resource.MimeTable;
import dev.weft.servlet.resource.Resource;
import dev.weft.servlet.resource.ResourceSet;
import dev.weft.servlet.session.SessionCookieSettings;
import dev.weft.servlet.session.SessionManager;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletContext;
import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.descriptor.JspConfigDescriptor;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@link ServletContext} of the one web application a container runs: attributes, init parameters,
 * programmatic registration of servlets, filters and listeners (only while configuring, {@link ContextPhase}),
 * resources, MIME types, session configuration and request dispatchers. Thread-safe.
 */
public final class WeftServletContext extends ConfigurableContext {

    private static final System.Logger LOG = System.getLogger(WeftServletContext.class.getName());
    private static final String TEMP_DIR_ATTRIBUTE = "jakarta.servlet.context.tempdir";

    private final ContextSettings settings;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private final Map<String, String> initParameters = Collections.synchronizedMap(new LinkedHashMap<>());
    private final MimeTable mimeTable;
    private final ResourceSet resources;
    private final SessionCookieSettings sessionCookie;
    private final SessionManager sessions;
    private final Path tempDir;
    private volatile DispatcherSource dispatchers;
    private volatile String requestCharacterEncoding;
    private volatile String responseCharacterEncoding;

    /**
     * @param documentRoot the document root (an existing directory)
     * @param tempDir      the context's private temporary directory (existing)
     */
    public WeftServletContext(ContextSettings settings, Path documentRoot, Path tempDir) {
        super(settings.classLoader());
        this.settings = settings;
        this.tempDir = tempDir;
        this.mimeTable = MimeTable.of(settings.mimeMappings());
        this.resources = new ResourceSet(documentRoot, settings.staticResourceLocations());
        this.initParameters.putAll(settings.initParameters());
        this.requestCharacterEncoding = settings.requestCharacterEncoding();
        this.responseCharacterEncoding = settings.responseCharacterEncoding();
        this.sessionCookie = new SessionCookieSettings(() -> phase().compareTo(ContextPhase.INITIALIZED) >= 0);
        this.sessions = new SessionManager(settings.session(), this, listeners(), sessionCookie, settings.classLoader());
        attributes.put(TEMP_DIR_ATTRIBUTE, tempDir.toFile());
    }

    // ---- container-side accessors

    /** The settings the context was created with. */
    public ContextSettings settings() {
        return settings;
    }

    /** The sessions. */
    public SessionManager sessions() {
        return sessions;
    }

    /** The static resources. */
    public ResourceSet resources() {
        return resources;
    }

    /** The MIME table. */
    public MimeTable mimeTable() {
        return mimeTable;
    }

    /** The private temporary directory. */
    public Path tempDir() {
        return tempDir;
    }

    /** Installs the dispatch layer's dispatcher factory. */
    public void dispatchers(DispatcherSource source) {
        this.dispatchers = source;
    }

    // ---- ServletContext: identity

    @Override
    public String getContextPath() {
        return settings.contextPath();
    }

    @Override
    public ServletContext getContext(String uripath) {
        if (uripath == null || !uripath.startsWith("/")) {
            return null;
        }
        String cp = settings.contextPath();
        boolean inside = cp.isEmpty() || uripath.equals(cp) || uripath.startsWith(cp + "/");
        return inside ? this : null;
    }

    @Override
    public int getMajorVersion() {
        return 6;
    }

    @Override
    public int getMinorVersion() {
        return 1;
    }

    @Override
    public int getEffectiveMajorVersion() {
        return 6;
    }

    @Override
    public int getEffectiveMinorVersion() {
        return 1;
    }

    @Override
    public String getServerInfo() {
        return settings.serverInfo();
    }

    @Override
    public String getServletContextName() {
        return settings.displayName();
    }

    @Override
    public String getVirtualServerName() {
        return settings.virtualServerName();
    }

    @Override
    public ClassLoader getClassLoader() {
        return settings.classLoader();
    }

    // ---- resources and MIME types

    @Override
    public String getMimeType(String file) {
        return mimeTable.typeOf(file);
    }

    @Override
    public Set<String> getResourcePaths(String path) {
        return resources.list(path);
    }

    @Override
    public URL getResource(String path) throws MalformedURLException {
        if (path == null || !path.startsWith("/")) {
            throw new MalformedURLException("resource path must start with /: " + path);
        }
        Resource r = resources.find(path);
        return r == null ? null : r.url();
    }

    @Override
    public InputStream getResourceAsStream(String path) {
        Resource r = path == null ? null : resources.find(path);
        if (r == null || r.directory()) {
            return null;
        }
        try {
            return r.open();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public String getRealPath(String path) {
        if (path == null) {
            return null;
        }
        Path p = resources.realPath(path.startsWith("/") ? path : "/" + path);
        return p == null ? null : p.toString();
    }

    // ---- dispatchers

    @Override
    public RequestDispatcher getRequestDispatcher(String path) {
        if (path == null || !path.startsWith("/") && !path.isEmpty()) {
            return null;
        }
        DispatcherSource d = dispatchers;
        return d == null ? null : d.forPath(path);
    }

    @Override
    public RequestDispatcher getNamedDispatcher(String name) {
        DispatcherSource d = dispatchers;
        return d == null || name == null ? null : d.forName(name);
    }

    // ---- logging

    @Override
    public void log(String msg) {
        LOG.log(Level.INFO, msg);
    }

    @Override
    public void log(String message, Throwable throwable) {
        LOG.log(Level.WARNING, message, throwable);
    }

    // ---- init parameters and attributes

    @Override
    public String getInitParameter(String name) {
        Objects.requireNonNull(name, "init parameter name");
        return initParameters.get(name);
    }

    @Override
    public Enumeration<String> getInitParameterNames() {
        synchronized (initParameters) {
            return Collections.enumeration(new HashSet<>(initParameters.keySet()));
        }
    }

    @Override
    public boolean setInitParameter(String name, String value) {
        Objects.requireNonNull(name, "init parameter name");
        if (phase().compareTo(ContextPhase.INITIALIZED) >= 0) {
            throw new IllegalStateException("the servlet context is initialized already");
        }
        if (isRestricted()) {
            throw new UnsupportedOperationException("a programmatically added listener may not set init parameters");
        }
        return initParameters.putIfAbsent(name, value) == null;
    }

    @Override
    public Object getAttribute(String name) {
        Objects.requireNonNull(name, "attribute name");
        return attributes.get(name);
    }

    @Override
    public Enumeration<String> getAttributeNames() {
        return Collections.enumeration(new HashSet<>(attributes.keySet()));
    }

    @Override
    public void setAttribute(String name, Object object) {
        Objects.requireNonNull(name, "attribute name");
        if (object == null) {
            removeAttribute(name);
            return;
        }
        Object previous = attributes.put(name, object);
        listeners().contextAttribute(this, name, object, previous);
    }

    @Override
    public void removeAttribute(String name) {
        Objects.requireNonNull(name, "attribute name");
        Object previous = attributes.remove(name);
        if (previous != null) {
            listeners().contextAttribute(this, name, null, previous);
        }
    }

    // ---- servlets

    // ---- filters

    // ---- listeners

    // ---- sessions

    @Override
    public SessionCookieConfig getSessionCookieConfig() {
        return sessionCookie;
    }

    @Override
    public void setSessionTrackingModes(Set<SessionTrackingMode> sessionTrackingModes) {
        if (phase().compareTo(ContextPhase.INITIALIZED) >= 0) {
            throw new IllegalStateException("the servlet context is initialized already");
        }
        if (isRestricted()) {
            throw new UnsupportedOperationException("a programmatically added listener may not set tracking modes");
        }
        sessions.trackingModes(sessionTrackingModes);
    }

    @Override
    public Set<SessionTrackingMode> getDefaultSessionTrackingModes() {
        return Set.of(SessionTrackingMode.COOKIE, SessionTrackingMode.URL);
    }

    @Override
    public Set<SessionTrackingMode> getEffectiveSessionTrackingModes() {
        return sessions.trackingModes();
    }

    @Override
    public int getSessionTimeout() {
        int seconds = sessions.maxInactiveSeconds();
        return seconds <= 0 ? 0 : Math.max(1, seconds / 60);
    }

    @Override
    public void setSessionTimeout(int sessionTimeout) {
        checkConfigurable();
        sessions.maxInactiveSeconds(sessionTimeout <= 0 ? 0 : sessionTimeout * 60);
    }

    // ---- character encodings

    @Override
    public String getRequestCharacterEncoding() {
        return requestCharacterEncoding;
    }

    @Override
    public void setRequestCharacterEncoding(String encoding) {
        checkConfigurable();
        this.requestCharacterEncoding = encoding;
    }

    @Override
    public void setRequestCharacterEncoding(Charset encoding) {
        setRequestCharacterEncoding(encoding == null ? null : encoding.name());
    }

    @Override
    public String getResponseCharacterEncoding() {
        return responseCharacterEncoding;
    }

    @Override
    public void setResponseCharacterEncoding(String encoding) {
        checkConfigurable();
        this.responseCharacterEncoding = encoding;
    }

    @Override
    public void setResponseCharacterEncoding(Charset encoding) {
        setResponseCharacterEncoding(encoding == null ? null : encoding.name());
    }

    /** The charset mapped to {@code locale} (language and country, then language), or null. */
    public Charset charsetFor(Locale locale) {
        Map<Locale, Charset> map = settings.localeCharsets();
        Charset c = map.get(locale);
        if (c == null && !locale.getCountry().isEmpty()) {
            c = map.get(Locale.of(locale.getLanguage()));
        }
        return c;
    }

    // ---- the rest

    @Override
    public JspConfigDescriptor getJspConfigDescriptor() {
        return null; // no JSP configuration: the container has no deployment descriptor
    }

    /** The private temporary directory as the spec's attribute gives it. */
    public File tempDirFile() {
        return tempDir.toFile();
    }

}
