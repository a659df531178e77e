package dev.weft.servlet.context;

import jakarta.servlet.Servlet;
import jakarta.servlet.ServletException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EventListener;
import java.util.List;

/**
 * Drives a context through its {@link ContextPhase}s, in the order Boot and the specification expect:
 * <ol>
 * <li>{@link #initialize}: declared listeners, the default servlet, every {@code ServletContainerInitializer}
 *     in order, then {@code contextInitialized} — no filter or servlet is initialized yet;</li>
 * <li>{@link #start}: sessions (read back if persisted), every filter's {@code init}, then the load-on-startup
 *     servlets in ascending order (ties in registration order); a second call does nothing;</li>
 * <li>{@link #stop}: requests are refused until the next start;</li>
 * <li>{@link #destroy}: servlets and filters destroyed, sessions saved or invalidated (their listeners before
 *     the context's), then {@code contextDestroyed} in reverse order.</li>
 * </ol>
 * Called by one thread at a time (the embedding API serializes its lifecycle calls).
 */
public final class ContextLifecycle {

    private final WeftServletContext context;
    private boolean started;

    public ContextLifecycle(WeftServletContext context) {
        this.context = context;
    }

    /** The context this drives. */
    public WeftServletContext context() {
        return context;
    }

    /**
     * Configures the context and runs its initializers and {@code contextInitialized}.
     *
     * @param defaultServlet the servlet to register as {@code default} at {@code /}, or null
     * @throws Exception what an initializer or a listener threw
     */
    public void initialize(List<EventListener> declaredListeners, Servlet defaultServlet,
                           List<InitializerSpec> initializers) throws Exception {
        for (EventListener l : declaredListeners) {
            context.addDeclaredListener(l);
        }
        if (defaultServlet != null) {
            context.addDefaultServlet("default", defaultServlet);
        }
        for (InitializerSpec spec : initializers) {
            context.runAsApplication(() -> spec.initializer().onStartup(spec.classes(), context));
        }
        context.phase(ContextPhase.INITIALIZING);
        context.runAsApplication(() -> context.listeners().contextInitialized(context, context::restricted));
        context.phase(ContextPhase.INITIALIZED);
    }

    /**
     * Starts serving: on the first call, sessions, filters and load-on-startup servlets are initialized.
     *
     * @throws ServletException if a filter's or a load-on-startup servlet's {@code init} failed
     */
    public void start() throws ServletException {
        ContextPhase phase = context.phase();
        if (phase == ContextPhase.STARTED) {
            return;
        }
        if (phase == ContextPhase.DESTROYED) {
            throw new IllegalStateException("the servlet context has been destroyed");
        }
        if (!started) {
            context.sessions().start();
            for (FilterEntry f : context.registrations().filters()) {
                f.init();
            }
            List<ServletEntry> onStartup = new ArrayList<>();
            for (ServletEntry s : context.registrations().servlets()) {
                if (s.loadOnStartup() >= 0) {
                    onStartup.add(s);
                }
            }
            onStartup.sort(Comparator.comparingInt(ServletEntry::loadOnStartup)); // stable: ties keep their order
            for (ServletEntry s : onStartup) {
                s.acquire();
            }
            started = true;
        }
        context.phase(ContextPhase.STARTED);
    }

    /** Stops serving requests; servlets stay initialized. */
    public void stop() {
        if (context.phase() == ContextPhase.STARTED) {
            context.phase(ContextPhase.STOPPED);
        }
    }

    /** Tears the context down for good; a second call does nothing. */
    public void destroy() {
        if (context.phase() == ContextPhase.DESTROYED) {
            return;
        }
        context.phase(ContextPhase.DESTROYED);
        List<ServletEntry> servlets = new ArrayList<>(context.registrations().servlets());
        servlets.sort(Comparator.comparingInt(ServletEntry::loadOnStartup).reversed());
        for (ServletEntry s : servlets) {
            s.destroyServlet();
        }
        List<FilterEntry> filters = context.registrations().filters();
        for (int i = filters.size() - 1; i >= 0; i--) {
            filters.get(i).destroyFilter();
        }
        if (started) {
            context.sessions().destroy();
        }
        try {
            context.runAsApplication(() -> context.listeners().contextDestroyed(context));
        } catch (Exception e) {
            throw new IllegalStateException(e); // contextDestroyed logs its listeners' exceptions itself
        } finally {
            context.resources().close();
        }
    }
}
