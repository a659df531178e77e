package dev.weft.servlet.context;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletSecurityElement;
import jakarta.servlet.UnavailableException;
import jakarta.servlet.annotation.MultipartConfig;
import jakarta.servlet.annotation.ServletSecurity;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One servlet of a context: its registration ({@code ServletRegistration.Dynamic}), its {@code ServletConfig},
 * and its life cycle (Servlet 6.1 §2.3). The instance is created and initialized once, by the first caller of
 * {@link #acquire()} (a request, or {@code start()} for load-on-startup servlets); concurrent callers wait for
 * that without a lock held while {@code init} runs. A failed {@code init} leaves the servlet out of service: the
 * next request tries again, unless an {@link UnavailableException} says for how long (or forever).
 */
public final class ServletEntry extends RegistrationEntry implements ServletRegistration.Dynamic, ServletConfig {


    /** Life-cycle states: NEW → INITIALIZING → AVAILABLE → DESTROYED; INITIALIZING → NEW or UNAVAILABLE on failure. */
    private enum State { NEW, INITIALIZING, AVAILABLE, UNAVAILABLE, DESTROYED }

    private final Class<? extends Servlet> servletClass;
    private final List<String> mappings = new CopyOnWriteArrayList<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition settled = lock.newCondition();
    private volatile Servlet instance;
    private volatile State state = State.NEW;
    private volatile long unavailableUntil;
    private volatile int loadOnStartup = -1;
    private volatile MultipartConfigElement multipartConfig;
    private volatile ServletSecurityElement security;
    private volatile String runAsRole;

    ServletEntry(ConfigurableContext context, String name, Class<? extends Servlet> servletClass, Servlet instance) {
        super(context, name, servletClass.getName());
        this.servletClass = servletClass;
        this.instance = instance;
        MultipartConfig multipart = servletClass.getAnnotation(MultipartConfig.class);
        if (multipart != null) {
            this.multipartConfig = new MultipartConfigElement(multipart);
        }
        ServletSecurity securityAnnotation = servletClass.getAnnotation(ServletSecurity.class);
        if (securityAnnotation != null) {
            this.security = new ServletSecurityElement(securityAnnotation);
        }
    }

    // ---- ServletConfig

    @Override
    public String getServletName() {
        return getName();
    }

    @Override
    public ServletContext getServletContext() {
        return context;
    }

    // ---- ServletRegistration.Dynamic

    @Override
    public Set<String> addMapping(String... urlPatterns) {
        Objects.requireNonNull(urlPatterns, "url patterns");
        context.checkConfigurable();
        if (urlPatterns.length == 0) {
            throw new IllegalArgumentException("no url pattern given");
        }
        Set<String> conflicts = context.registrations().mapServlet(this, List.of(urlPatterns));
        if (conflicts.isEmpty()) {
            mappings.addAll(List.of(urlPatterns));
        }
        return conflicts;
    }

    @Override
    public Collection<String> getMappings() {
        return List.copyOf(mappings);
    }

    @Override
    public String getRunAsRole() {
        return runAsRole;
    }

    @Override
    public void setRunAsRole(String roleName) {
        context.checkConfigurable();
        this.runAsRole = roleName;
    }

    @Override
    public void setLoadOnStartup(int loadOnStartup) {
        context.checkConfigurable();
        this.loadOnStartup = loadOnStartup;
    }

    /** The load-on-startup order; negative: loaded on the first request. */
    public int loadOnStartup() {
        return loadOnStartup;
    }

    @Override
    public Set<String> setServletSecurity(ServletSecurityElement constraint) {
        Objects.requireNonNull(constraint, "servlet security element");
        context.checkConfigurable();
        this.security = constraint;
        return Set.of();
    }

    /** The security constraint of this servlet, or null. */
    public ServletSecurityElement security() {
        return security;
    }

    @Override
    public void setMultipartConfig(MultipartConfigElement multipartConfig) {
        Objects.requireNonNull(multipartConfig, "multipart config");
        context.checkConfigurable();
        this.multipartConfig = multipartConfig;
    }

    /** The multipart configuration; null: the servlet does not read {@code multipart/form-data} as parts. */
    public MultipartConfigElement multipartConfig() {
        return multipartConfig;
    }

    // ---- life cycle

    /**
     * The initialized servlet, initializing it first if needed.
     *
     * @throws UnavailableException if it is out of service (permanently, or for a while)
     * @throws ServletException     if its {@code init} failed (it is tried again on the next call)
     */
    public Servlet acquire() throws ServletException {
        Servlet s = instance;
        if (state == State.AVAILABLE) {
            return s;
        }
        lock.lock();
        try {
            while (state == State.INITIALIZING) {
                settled.awaitUninterruptibly();
            }
            switch (state) {
                case AVAILABLE:
                    return instance;
                case DESTROYED:
                    throw new UnavailableException("servlet " + getName() + " has been destroyed");
                case UNAVAILABLE:
                    long until = unavailableUntil;
                    if (until < 0) {
                        throw new UnavailableException("servlet " + getName() + " is permanently unavailable");
                    }
                    long left = until - System.currentTimeMillis();
                    if (left > 0) {
                        throw new UnavailableException("servlet " + getName() + " is unavailable",
                                (int) Math.max(1, (left + 999) / 1000));
                    }
                    break;
                default:
                    break;
            }
            state = State.INITIALIZING;
        } finally {
            lock.unlock();
        }
        State outcome = State.NEW;
        try {
            Servlet created = instance != null ? instance : instantiate(servletClass);
            context.runAsApplication(() -> created.init(this));
            instance = created;
            outcome = State.AVAILABLE;
            return created;
        } catch (UnavailableException e) {
            outcome = State.UNAVAILABLE;
            unavailableUntil = e.isPermanent() ? -1
                    : System.currentTimeMillis() + Math.max(1, e.getUnavailableSeconds()) * 1000L;
            throw e;
        } catch (ServletException e) {
            throw e;
        } catch (ReflectiveOperationException e) {
            throw new ServletException("cannot instantiate servlet " + getName() + " (" + getClassName() + ")", e);
        } catch (Exception e) {
            throw new ServletException("init of servlet " + getName() + " failed", e);
        } finally {
            lock.lock();
            try {
                state = outcome;
                settled.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Takes the servlet out of service for good after a {@code service} call threw a permanent
     * {@link UnavailableException} (§2.3.3.2): {@code destroy} is called and later requests get 404.
     */
    public void markPermanentlyUnavailable() {
        destroyServlet();
        lock.lock();
        try {
            state = State.UNAVAILABLE;
            unavailableUntil = -1;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Refuses requests for {@code seconds} after {@code service} threw a temporary {@link UnavailableException};
     * the instance stays initialized.
     */
    public void markUnavailableFor(int seconds) {
        unavailableUntil = System.currentTimeMillis() + Math.max(1, seconds) * 1000L;
    }

    /**
     * Until when requests are refused, in milliseconds since the epoch (0: never refused; -1: permanently out of
     * service).
     */
    public long unavailableUntil() {
        return unavailableUntil;
    }

    /** Calls {@code destroy} if the servlet was initialized; it is out of service afterwards. */
    public void destroyServlet() {
        Servlet s;
        lock.lock();
        try {
            while (state == State.INITIALIZING) {
                settled.awaitUninterruptibly();
            }
            boolean wasAvailable = state == State.AVAILABLE;
            state = State.DESTROYED;
            s = wasAvailable ? instance : null;
        } finally {
            lock.unlock();
        }
        if (s != null) {
            context.runCallback(s::destroy, "destroy of servlet " + getName());
        }
    }

    /** Whether {@code init} has completed. */
    public boolean isInitialized() {
        return state == State.AVAILABLE;
    }

    /** The servlet's class. */
    public Class<? extends Servlet> servletClass() {
        return servletClass;
    }

    @Override
    public String toString() {
        return "servlet " + getName();
    }
}
