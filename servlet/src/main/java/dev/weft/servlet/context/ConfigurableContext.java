package dev.weft.servlet.context;

import dev.weft.servlet.event.ListenerRegistry;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;

import java.util.Collections;
import java.util.EventListener;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The programmatic configuration side of the servlet context (Servlet 6.1 §4.4): adding and looking up
 * servlets, filters and listeners, allowed only while the context is configured ({@link ContextPhase}) and never
 * from a {@code ServletContextListener} that was itself added programmatically. {@link WeftServletContext} adds
 * the rest of {@link ServletContext}. Thread-safe.
 */
public abstract class ConfigurableContext implements ServletContext {

    private static final System.Logger LOG = System.getLogger(ConfigurableContext.class.getName());

    private final ClassLoader classLoader;
    private final ListenerRegistry listeners = new ListenerRegistry();
    private final Registrations registrations = new Registrations();
    private final Set<String> declaredRoles = ConcurrentHashMap.newKeySet();
    private volatile ContextPhase phase = ContextPhase.CONFIGURING;
    private volatile boolean restricted;

    ConfigurableContext(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    /** Whether a programmatically added listener is being initialized right now. */
    boolean isRestricted() {
        return restricted;
    }

@Override
    public ServletRegistration.Dynamic addServlet(String servletName, String className) {
        return addServlet(servletName, loadClass(className, Servlet.class), null);
    }

    @Override
    public ServletRegistration.Dynamic addServlet(String servletName, Servlet servlet) {
        Objects.requireNonNull(servlet, "servlet");
        return addServlet(servletName, servlet.getClass(), servlet);
    }

    @Override
    public ServletRegistration.Dynamic addServlet(String servletName, Class<? extends Servlet> servletClass) {
        Objects.requireNonNull(servletClass, "servlet class");
        return addServlet(servletName, servletClass, null);
    }

    private ServletRegistration.Dynamic addServlet(String name, Class<? extends Servlet> type, Servlet instance) {
        checkName(name, "servlet");
        checkConfigurable();
        ServletEntry entry = new ServletEntry(this, name, type, instance);
        return registrations.addServlet(entry) ? entry : null;
    }

    /**
     * Registers the container's default servlet under {@code name}, mapped to {@code /} unless the application
     * maps a servlet there.
     */
    public ServletEntry addDefaultServlet(String name, Servlet servlet) {
        ServletEntry entry = (ServletEntry) addServlet(name, servlet);
        if (entry == null) {
            throw new IllegalStateException("a servlet named " + name + " is registered already");
        }
        registrations.overridable(entry);
        entry.addMapping("/");
        return entry;
    }

    @Override
    public ServletRegistration.Dynamic addJspFile(String servletName, String jspFile) {
        checkName(servletName, "servlet");
        if (jspFile == null || !jspFile.startsWith("/")) {
            throw new IllegalArgumentException("jsp file must start with /: " + jspFile);
        }
        checkConfigurable();
        ServletEntry jsp = registrations.servlet("jsp");
        if (jsp == null) {
            throw new IllegalStateException("no JSP engine: register a servlet named \"jsp\" to serve JSP files");
        }
        ServletEntry entry = new ServletEntry(this, servletName, jsp.servletClass(), null);
        if (!registrations.addServlet(entry)) {
            return null;
        }
        entry.setInitParameters(jsp.getInitParameters());
        entry.setInitParameter("jspFile", jspFile);
        return entry;
    }

    @Override
    public <T extends Servlet> T createServlet(Class<T> clazz) throws jakarta.servlet.ServletException {
        return create(clazz, "servlet");
    }

    @Override
    public ServletRegistration getServletRegistration(String servletName) {
        checkNotRestricted();
        return registrations.servlet(servletName);
    }

    @Override
    public Map<String, ? extends ServletRegistration> getServletRegistrations() {
        checkNotRestricted();
        Map<String, ServletRegistration> m = new LinkedHashMap<>();
        registrations.servlets().forEach(s -> m.put(s.getName(), s));
        return Collections.unmodifiableMap(m);
    }

    @Override
    public FilterRegistration.Dynamic addFilter(String filterName, String className) {
        return addFilter(filterName, loadClass(className, Filter.class), null);
    }

    @Override
    public FilterRegistration.Dynamic addFilter(String filterName, Filter filter) {
        Objects.requireNonNull(filter, "filter");
        return addFilter(filterName, filter.getClass(), filter);
    }

    @Override
    public FilterRegistration.Dynamic addFilter(String filterName, Class<? extends Filter> filterClass) {
        Objects.requireNonNull(filterClass, "filter class");
        return addFilter(filterName, filterClass, null);
    }

    private FilterRegistration.Dynamic addFilter(String name, Class<? extends Filter> type, Filter instance) {
        checkName(name, "filter");
        checkConfigurable();
        FilterEntry entry = new FilterEntry(this, name, type, instance);
        return registrations.addFilter(entry) ? entry : null;
    }

    @Override
    public <T extends Filter> T createFilter(Class<T> clazz) throws jakarta.servlet.ServletException {
        return create(clazz, "filter");
    }

    @Override
    public FilterRegistration getFilterRegistration(String filterName) {
        checkNotRestricted();
        return registrations.filter(filterName);
    }

    @Override
    public Map<String, ? extends FilterRegistration> getFilterRegistrations() {
        checkNotRestricted();
        Map<String, FilterRegistration> m = new LinkedHashMap<>();
        registrations.filters().forEach(f -> m.put(f.getName(), f));
        return Collections.unmodifiableMap(m);
    }

    @Override
    public void addListener(String className) {
        addListener(loadClass(className, EventListener.class));
    }

    @Override
    public <T extends EventListener> void addListener(T t) {
        Objects.requireNonNull(t, "listener");
        checkConfigurable();
        listeners.add(t, phase == ContextPhase.CONFIGURING, false);
    }

    @Override
    public void addListener(Class<? extends EventListener> listenerClass) {
        Objects.requireNonNull(listenerClass, "listener class");
        EventListener listener;
        try {
            listener = createListener(listenerClass);
        } catch (jakarta.servlet.ServletException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        addListener(listener);
    }

    /** Registers a listener given to the container's builder: it may configure the context. */
    void addDeclaredListener(EventListener listener) {
        listeners.add(listener, true, true);
    }

    @Override
    public <T extends EventListener> T createListener(Class<T> clazz) throws jakarta.servlet.ServletException {
        if (!ListenerRegistry.isSupported(clazz, true)) {
            throw new IllegalArgumentException("not a supported listener type: " + clazz.getName());
        }
        return create(clazz, "listener");
    }

    @Override
    public void declareRoles(String... roleNames) {
        checkConfigurable();
        for (String role : roleNames) {
            if (role == null || role.isEmpty()) {
                throw new IllegalArgumentException("role name must not be empty");
            }
            declaredRoles.add(role);
        }
    }

    private void checkNotRestricted() {
        if (restricted) {
            throw new UnsupportedOperationException(
                    "a ServletContextListener added programmatically may not read registrations (Servlet 6.1 §4.4)");
        }
    }

    private static void checkName(String name, String kind) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException(kind + " name must not be empty");
        }
    }

    private <T> Class<? extends T> loadClass(String className, Class<T> type) {
        Objects.requireNonNull(className, "class name");
        try {
            Class<?> c = Class.forName(className, false, classLoader);
            if (!type.isAssignableFrom(c)) {
                throw new IllegalArgumentException(className + " is not a " + type.getName());
            }
            return c.asSubclass(type);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("class not found: " + className, e);
        }
    }

    private static <T> T create(Class<T> type, String kind) throws jakarta.servlet.ServletException {
        try {
            return RegistrationEntry.instantiate(type);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new jakarta.servlet.ServletException("cannot instantiate " + kind + " " + type.getName(), e);
        }
    }

    /**
     * Throws unless servlets, filters and listeners may still be added.
     *
     * @throws IllegalStateException         after the context is initialized
     * @throws UnsupportedOperationException from a programmatically added {@code ServletContextListener}
     */
    void checkConfigurable() {
        ContextPhase p = phase;
        if (p != ContextPhase.CONFIGURING && p != ContextPhase.INITIALIZING) {
            throw new IllegalStateException("the servlet context is initialized already: it can no longer be configured");
        }
        if (restricted) {
            throw new UnsupportedOperationException(
                    "a ServletContextListener added programmatically may not configure the context (Servlet 6.1 §4.4)");
        }
    }

    /** While true, a programmatically added listener is being initialized: configuration methods are refused. */
    void restricted(boolean restricted) {
        this.restricted = restricted;
    }

    /** Roles declared with {@link #declareRoles}. */
    public Set<String> declaredRoles() {
        return Set.copyOf(declaredRoles);
    }

    /** Where the context is in its life. */
    public ContextPhase phase() {
        return phase;
    }

    void phase(ContextPhase phase) {
        this.phase = phase;
    }

    /** The application's listeners. */
    public ListenerRegistry listeners() {
        return listeners;
    }

    /** The servlets, filters and mappings. */
    public Registrations registrations() {
        return registrations;
    }

/** Runs application code with the application's class loader as the thread's context class loader. */
    public void runAsApplication(ApplicationCall call) throws Exception {
        Thread t = Thread.currentThread();
        ClassLoader previous = t.getContextClassLoader();
        t.setContextClassLoader(classLoader);
        try {
            call.run();
        } finally {
            t.setContextClassLoader(previous);
        }
    }

    /**
     * Runs a container callback into the application (a listener's notification, a {@code destroy}) as
     * {@link #runAsApplication} does; a failure is logged as the application's ({@code what} names the callback)
     * and reported as false.
     */
    public boolean runCallback(ApplicationCall call, String what) {
        try {
            runAsApplication(call);
            return true;
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, what + " threw", e);
            return false;
        }
    }
}
