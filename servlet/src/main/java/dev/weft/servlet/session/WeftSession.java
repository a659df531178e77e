package dev.weft.servlet.session;

import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionBindingListener;

import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One {@link HttpSession}: its attributes (thread-safe, binding and attribute events fired on the calling
 * thread), times and validity. Its id changes only through {@link SessionManager#changeId}. Once invalidated
 * (by the application, a timeout or the limit of its store) it is gone for every thread at once: every method
 * but {@link #getId()}, {@link #getServletContext()} and the inactivity interval throws
 * {@link IllegalStateException}.
 */
public final class WeftSession implements HttpSession {

    private final SessionManager manager;
    private final long creationTime;
    private final Map<String, Object> attributes = new ConcurrentHashMap<>();
    private final AtomicInteger activeRequests = new AtomicInteger();
    private volatile String id;
    private volatile long lastAccessedTime;
    private volatile long thisAccessedTime;
    private volatile int maxInactiveInterval;
    private volatile boolean isNew = true;
    /** 0 valid, 1 being invalidated (listeners still see it), 2 invalid. */
    private final AtomicInteger state = new AtomicInteger();

    WeftSession(SessionManager manager, String id, long creationTime, long lastAccessedTime, int maxInactiveInterval) {
        this.manager = manager;
        this.id = id;
        this.creationTime = creationTime;
        this.lastAccessedTime = lastAccessedTime;
        this.thisAccessedTime = lastAccessedTime;
        this.maxInactiveInterval = maxInactiveInterval;
    }

    @Override
    public long getCreationTime() {
        checkValid();
        return creationTime;
    }

    @Override
    public String getId() {
        return id;
    }

    void id(String newId) {
        this.id = newId;
    }

    @Override
    public long getLastAccessedTime() {
        checkValid();
        return lastAccessedTime;
    }

    @Override
    public ServletContext getServletContext() {
        return manager.servletContext();
    }

    @Override
    public void setMaxInactiveInterval(int interval) {
        this.maxInactiveInterval = interval;
    }

    @Override
    public int getMaxInactiveInterval() {
        return maxInactiveInterval;
    }

    @Override
    public Object getAttribute(String name) {
        checkValid();
        return name == null ? null : attributes.get(name);
    }

    @Override
    public Enumeration<String> getAttributeNames() {
        checkValid();
        return Collections.enumeration(new HashSet<>(attributes.keySet()));
    }

    @Override
    public void setAttribute(String name, Object value) {
        Objects.requireNonNull(name, "attribute name");
        checkValid();
        if (value == null) {
            removeAttribute(name);
            return;
        }
        if (value instanceof HttpSessionBindingListener l) {
            l.valueBound(new HttpSessionBindingEvent(this, name, value));
        }
        Object previous = attributes.put(name, value);
        if (previous != null && previous != value && previous instanceof HttpSessionBindingListener l) {
            l.valueUnbound(new HttpSessionBindingEvent(this, name, previous));
        }
        manager.listeners().sessionAttribute(this, name, value, previous);
    }

    @Override
    public void removeAttribute(String name) {
        checkValid();
        removeAndNotify(name);
    }

    private void removeAndNotify(String name) {
        Object previous = name == null ? null : attributes.remove(name);
        if (previous == null) {
            return;
        }
        if (previous instanceof HttpSessionBindingListener l) {
            l.valueUnbound(new HttpSessionBindingEvent(this, name, previous));
        }
        manager.listeners().sessionAttribute(this, name, null, previous);
    }

    @Override
    public void invalidate() {
        checkValid();
        manager.invalidate(this, true);
    }

    @Override
    public boolean isNew() {
        checkValid();
        return isNew;
    }

    @Override
    public Accessor getAccessor() {
        checkValid();
        String idAtCreation = id;
        return consumer -> manager.access(idAtCreation, consumer);
    }

    /** Whether the session is usable (not invalidated, not being invalidated). */
    public boolean isValid() {
        return state.get() == 0;
    }

    private void checkValid() {
        if (state.get() == 2) {
            throw new IllegalStateException("session " + id + " has been invalidated");
        }
    }

    /** Moves the session to "being invalidated"; false if another thread got there first. */
    boolean beginInvalidation() {
        return state.compareAndSet(0, 1);
    }

    /** Unbinds every attribute (events fired) and makes the session invalid. */
    void finishInvalidation(Consumer<RuntimeException> failures) {
        for (String name : new HashSet<>(attributes.keySet())) {
            try {
                removeAndNotify(name);
            } catch (RuntimeException e) {
                failures.accept(e);
            }
        }
        state.set(2);
    }

    /** A request of the session's client starts using it. */
    void access(long now) {
        activeRequests.incrementAndGet();
        lastAccessedTime = thisAccessedTime;
        thisAccessedTime = now;
    }

    /** The client sent the session's id back: it has joined the session. */
    void joined() {
        isNew = false;
    }

    /** A request that used the session ended. */
    void release(long now) {
        thisAccessedTime = now;
        activeRequests.decrementAndGet();
    }

    boolean inUse() {
        return activeRequests.get() > 0;
    }

    boolean isExpired(long now) {
        int max = maxInactiveInterval;
        return max > 0 && now - thisAccessedTime > max * 1000L;
    }

    Map<String, Object> attributes() {
        return attributes;
    }

    long thisAccessedTime() {
        return thisAccessedTime;
    }
}
