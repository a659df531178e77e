package dev.weft.servlet.event;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextAttributeEvent;
import jakarta.servlet.ServletContextAttributeListener;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestAttributeEvent;
import jakarta.servlet.ServletRequestAttributeListener;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionAttributeListener;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionIdListener;
import jakarta.servlet.http.HttpSessionListener;

import java.lang.System.Logger.Level;
import java.util.EventListener;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The application's event listeners of one context (Servlet 6.1 §11), each kept in registration order, and the
 * firing of their events: lifecycle "created/initialized" events in order, "destroyed" events in reverse order.
 * Events fired under the call tree of application code let an exception propagate (the error page mechanism
 * handles it, and the remaining listeners are not called); the others are logged. Thread-safe; events are
 * fired on the caller's thread with no lock held.
 */
public final class ListenerRegistry {

    private static final System.Logger LOG = System.getLogger(ListenerRegistry.class.getName());

    private final List<ContextListener> contextListeners = new CopyOnWriteArrayList<>();
    private final List<ServletContextAttributeListener> contextAttributeListeners = new CopyOnWriteArrayList<>();
    private final List<ServletRequestListener> requestListeners = new CopyOnWriteArrayList<>();
    private final List<ServletRequestAttributeListener> requestAttributeListeners = new CopyOnWriteArrayList<>();
    private final List<HttpSessionListener> sessionListeners = new CopyOnWriteArrayList<>();
    private final List<HttpSessionAttributeListener> sessionAttributeListeners = new CopyOnWriteArrayList<>();
    private final List<HttpSessionIdListener> sessionIdListeners = new CopyOnWriteArrayList<>();

    /** Whether {@code type} is a listener type a context accepts ({@code ServletContext.addListener}). */
    public static boolean isSupported(Class<?> type, boolean contextListenerAllowed) {
        return contextListenerAllowed && ServletContextListener.class.isAssignableFrom(type)
                || ServletContextAttributeListener.class.isAssignableFrom(type)
                || ServletRequestListener.class.isAssignableFrom(type)
                || ServletRequestAttributeListener.class.isAssignableFrom(type)
                || HttpSessionListener.class.isAssignableFrom(type)
                || HttpSessionAttributeListener.class.isAssignableFrom(type)
                || HttpSessionIdListener.class.isAssignableFrom(type);
    }

    /** A context listener and whether it was declared (given to the builder) rather than added programmatically. */
    private record ContextListener(ServletContextListener listener, boolean declared) {
    }

    /**
     * Registers {@code listener} under every supported interface it implements, at the end of each list.
     *
     * @param contextListenerAllowed whether it may be a {@code ServletContextListener}
     * @param declared               whether it was declared to the container rather than added programmatically
     * @throws IllegalArgumentException if it implements none
     */
    public void add(EventListener listener, boolean contextListenerAllowed, boolean declared) {
        if (!isSupported(listener.getClass(), contextListenerAllowed)) {
            throw new IllegalArgumentException("not a supported listener type: " + listener.getClass().getName()
                    + (contextListenerAllowed ? "" : " (a ServletContextListener may only be added by an initializer)"));
        }
        if (contextListenerAllowed && listener instanceof ServletContextListener l) {
            contextListeners.add(new ContextListener(l, declared));
        }
        if (listener instanceof ServletContextAttributeListener l) {
            contextAttributeListeners.add(l);
        }
        if (listener instanceof ServletRequestListener l) {
            requestListeners.add(l);
        }
        if (listener instanceof ServletRequestAttributeListener l) {
            requestAttributeListeners.add(l);
        }
        if (listener instanceof HttpSessionListener l) {
            sessionListeners.add(l);
        }
        if (listener instanceof HttpSessionAttributeListener l) {
            sessionAttributeListeners.add(l);
        }
        if (listener instanceof HttpSessionIdListener l) {
            sessionIdListeners.add(l);
        }
    }

    /**
     * {@code contextInitialized} on every context listener, in order; the first exception propagates (the
     * context fails to start). {@code restriction} is told {@code true} before a programmatically added
     * listener runs (which may not configure the context, §4.4) and {@code false} after.
     */
    public void contextInitialized(ServletContext context, Consumer<Boolean> restriction) {
        ServletContextEvent event = new ServletContextEvent(context);
        for (ContextListener l : contextListeners) {
            restriction.accept(!l.declared());
            try {
                l.listener().contextInitialized(event);
            } finally {
                restriction.accept(false);
            }
        }
    }

    /** {@code contextDestroyed} on every context listener, in reverse order; exceptions are logged. */
    public void contextDestroyed(ServletContext context) {
        ServletContextEvent event = new ServletContextEvent(context);
        for (int i = contextListeners.size() - 1; i >= 0; i--) {
            ServletContextListener l = contextListeners.get(i).listener();
            try {
                l.contextDestroyed(event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "contextDestroyed of " + l.getClass().getName() + " threw", e);
            }
        }
    }

    /** Context attribute events, under the caller's call tree. */
    public void contextAttribute(ServletContext context, String name, Object value, Object previous) {
        if (contextAttributeListeners.isEmpty()) {
            return;
        }
        for (ServletContextAttributeListener l : contextAttributeListeners) {
            if (previous == null) {
                l.attributeAdded(new ServletContextAttributeEvent(context, name, value));
            } else if (value == null) {
                l.attributeRemoved(new ServletContextAttributeEvent(context, name, previous));
            } else {
                l.attributeReplaced(new ServletContextAttributeEvent(context, name, previous));
            }
        }
    }

    /** Whether any request listener is registered (so request events can be skipped cheaply). */
    public boolean hasRequestListeners() {
        return !requestListeners.isEmpty();
    }

    /** {@code requestInitialized}, in order; an exception propagates (the request fails with 500). */
    public void requestInitialized(ServletContext context, ServletRequest request) {
        ServletRequestEvent event = new ServletRequestEvent(context, request);
        for (ServletRequestListener l : requestListeners) {
            l.requestInitialized(event);
        }
    }

    /** {@code requestDestroyed}, in reverse order; exceptions are logged (no application code is on the stack). */
    public void requestDestroyed(ServletContext context, ServletRequest request) {
        ServletRequestEvent event = new ServletRequestEvent(context, request);
        for (int i = requestListeners.size() - 1; i >= 0; i--) {
            ServletRequestListener l = requestListeners.get(i);
            try {
                l.requestDestroyed(event);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "requestDestroyed of " + l.getClass().getName() + " threw", e);
            }
        }
    }

    /** Request attribute events, under the caller's call tree. */
    public void requestAttribute(ServletContext context, ServletRequest request, String name, Object value,
                                 Object previous) {
        if (requestAttributeListeners.isEmpty()) {
            return;
        }
        for (ServletRequestAttributeListener l : requestAttributeListeners) {
            if (previous == null) {
                l.attributeAdded(new ServletRequestAttributeEvent(context, request, name, value));
            } else if (value == null) {
                l.attributeRemoved(new ServletRequestAttributeEvent(context, request, name, previous));
            } else {
                l.attributeReplaced(new ServletRequestAttributeEvent(context, request, name, previous));
            }
        }
    }

    /** {@code sessionCreated}, in order, under the call tree of the request that created the session. */
    public void sessionCreated(HttpSession session) {
        HttpSessionEvent event = new HttpSessionEvent(session);
        for (HttpSessionListener l : sessionListeners) {
            l.sessionCreated(event);
        }
    }

    /**
     * {@code sessionDestroyed}, in reverse order. With {@code propagate} (an invalidation by application code)
     * an exception propagates; otherwise (a timeout, a shutdown) it is logged.
     */
    public void sessionDestroyed(HttpSession session, boolean propagate) {
        HttpSessionEvent event = new HttpSessionEvent(session);
        for (int i = sessionListeners.size() - 1; i >= 0; i--) {
            HttpSessionListener l = sessionListeners.get(i);
            try {
                l.sessionDestroyed(event);
            } catch (RuntimeException e) {
                if (propagate) {
                    throw e;
                }
                LOG.log(Level.WARNING, "sessionDestroyed of " + l.getClass().getName() + " threw", e);
            }
        }
    }

    /** Session attribute events; {@code value} null means removed, {@code previous} null means added. */
    public void sessionAttribute(HttpSession session, String name, Object value, Object previous) {
        if (sessionAttributeListeners.isEmpty()) {
            return;
        }
        for (HttpSessionAttributeListener l : sessionAttributeListeners) {
            if (previous == null) {
                l.attributeAdded(new HttpSessionBindingEvent(session, name, value));
            } else if (value == null) {
                l.attributeRemoved(new HttpSessionBindingEvent(session, name, previous));
            } else {
                l.attributeReplaced(new HttpSessionBindingEvent(session, name, previous));
            }
        }
    }

    /** {@code sessionIdChanged}, in order, under the call tree of {@code changeSessionId()}. */
    public void sessionIdChanged(HttpSession session, String oldId) {
        if (sessionIdListeners.isEmpty()) {
            return;
        }
        HttpSessionEvent event = new HttpSessionEvent(session);
        for (HttpSessionIdListener l : sessionIdListeners) {
            l.sessionIdChanged(event, oldId);
        }
    }
}
