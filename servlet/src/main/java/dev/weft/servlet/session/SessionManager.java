package dev.weft.servlet.session;

import dev.weft.servlet.event.ListenerRegistry;
import jakarta.servlet.ServletContext;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.http.HttpSession;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * The sessions of one context, in memory: creation under a limit, lookup (an expired session is invalidated
 * when found, as well as by a sweeper on a virtual thread), id changes, invalidation with its events, and
 * optional persistence across a destroy and a new start ({@link SessionStore}). Thread-safe; no lock is held
 * while listeners run.
 */
public final class SessionManager {

    private static final System.Logger LOG = System.getLogger(SessionManager.class.getName());
    private static final Set<SessionTrackingMode> SUPPORTED =
            EnumSet.of(SessionTrackingMode.COOKIE, SessionTrackingMode.URL, SessionTrackingMode.SSL);

    private final SessionSettings settings;
    private final ServletContext context;
    private final ListenerRegistry listeners;
    private final SessionCookieSettings cookie;
    private final ClassLoader classLoader;
    private final Map<String, WeftSession> sessions = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private volatile Set<SessionTrackingMode> trackingModes;
    private volatile int maxInactiveSeconds;
    private volatile boolean running;
    private Thread sweeper;

    public SessionManager(SessionSettings settings, ServletContext context, ListenerRegistry listeners,
                          SessionCookieSettings cookie, ClassLoader classLoader) {
        this.settings = settings;
        this.context = context;
        this.listeners = listeners;
        this.cookie = cookie;
        this.classLoader = classLoader;
        this.trackingModes = Set.copyOf(settings.trackingModes());
        this.maxInactiveSeconds = settings.maxInactiveSeconds();
    }

    ServletContext servletContext() {
        return context;
    }

    ListenerRegistry listeners() {
        return listeners;
    }

    /** The session cookie's configuration. */
    public SessionCookieSettings cookie() {
        return cookie;
    }

    /** The tracking modes the container supports. */
    public Set<SessionTrackingMode> supportedTrackingModes() {
        return SUPPORTED;
    }

    /** The tracking modes in effect. */
    public Set<SessionTrackingMode> trackingModes() {
        return trackingModes;
    }

    /**
     * Replaces the tracking modes ({@code ServletContext.setSessionTrackingModes}).
     *
     * @throws IllegalArgumentException for {@code SSL} combined with another mode
     */
    public void trackingModes(Set<SessionTrackingMode> modes) {
        if (modes.contains(SessionTrackingMode.SSL) && modes.size() > 1) {
            throw new IllegalArgumentException("SSL session tracking cannot be combined with another mode");
        }
        this.trackingModes = Set.copyOf(modes);
    }

    /** Default inactivity limit of new sessions, in seconds (0 or less: none). */
    public int maxInactiveSeconds() {
        return maxInactiveSeconds;
    }

    /** Changes the default inactivity limit of new sessions. */
    public void maxInactiveSeconds(int seconds) {
        this.maxInactiveSeconds = seconds;
    }

    /** Reads the sessions saved by a previous {@link #destroy()} and starts the sweeper. */
    public void start() {
        if (running) {
            return;
        }
        running = true;
        if (settings.storeDir() != null) {
            try {
                for (WeftSession s : SessionStore.load(settings.storeDir(), this, classLoader)) {
                    sessions.put(s.getId(), s);
                }
            } catch (IOException e) {
                LOG.log(Level.WARNING, "could not read the saved sessions in " + settings.storeDir(), e);
            }
        }
        long intervalNanos = settings.sweepInterval().toNanos();
        sweeper = Thread.ofVirtual().name("weft-session-sweeper").start(() -> {
            while (running) {
                LockSupport.parkNanos(intervalNanos);
                if (running) {
                    sweep(System.currentTimeMillis());
                }
            }
        });
    }

    /**
     * Stops the sweeper and ends every session: saved to the store directory (when one is set), else
     * invalidated with their events.
     */
    public void destroy() {
        running = false;
        if (sweeper != null) {
            LockSupport.unpark(sweeper);
            sweeper = null;
        }
        List<WeftSession> all = new ArrayList<>(sessions.values());
        sessions.clear();
        if (settings.storeDir() != null) {
            try {
                SessionStore.save(settings.storeDir(), all);
                return;
            } catch (IOException e) {
                LOG.log(Level.WARNING, "could not save the sessions in " + settings.storeDir(), e);
            }
        }
        for (WeftSession s : all) {
            invalidate(s, false);
        }
    }

    /** Removes every expired session not in use by a request. */
    void sweep(long now) {
        for (WeftSession s : sessions.values()) {
            if (s.isExpired(now) && !s.inUse()) {
                invalidate(s, false);
            }
        }
    }

    /**
     * The valid session with {@code id}, or null; an expired one is invalidated on the way. The caller must
     * {@link #release} a session it {@link #acquire}s.
     */
    public WeftSession find(String id) {
        if (id == null) {
            return null;
        }
        WeftSession s = sessions.get(id);
        if (s == null || !s.isValid()) {
            return null;
        }
        if (s.isExpired(System.currentTimeMillis()) && !s.inUse()) {
            invalidate(s, false);
            return null;
        }
        return s;
    }

    /** A request starts using {@code session}; {@code joined} when the client sent its id. */
    public void acquire(WeftSession session, boolean joined) {
        session.access(System.currentTimeMillis());
        if (joined) {
            session.joined();
        }
    }

    /** A request that {@link #acquire}d {@code session} ended. */
    public void release(WeftSession session) {
        session.release(System.currentTimeMillis());
    }

    /**
     * A new session, stored and announced ({@code sessionCreated}, whose exception propagates).
     *
     * @param requestedId the id to use (SSL tracking: the TLS session's), or null for a new random one
     *
     * @throws SessionLimitException when the store is full
     */
    public WeftSession create(String requestedId) {
        if (sessions.size() >= settings.maxSessions()) {
            sweep(System.currentTimeMillis());
            if (sessions.size() >= settings.maxSessions()) {
                throw new SessionLimitException(settings.maxSessions());
            }
        }
        long now = System.currentTimeMillis();
        WeftSession s;
        do {
            s = new WeftSession(this, requestedId != null ? requestedId : newId(), now, now, maxInactiveSeconds);
            if (requestedId != null && sessions.putIfAbsent(s.getId(), s) != null) {
                throw new IllegalStateException("a session with the TLS session's id exists already");
            }
        } while (requestedId == null && sessions.putIfAbsent(s.getId(), s) != null);
        listeners.sessionCreated(s);
        return s;
    }

    /** Gives {@code session} a new id (session fixation protection); returns the old one. */
    public String changeId(WeftSession session) {
        if (!session.isValid()) {
            throw new IllegalStateException("session has been invalidated");
        }
        String oldId = session.getId();
        String newId;
        do {
            newId = newId();
        } while (sessions.putIfAbsent(newId, session) != null);
        session.id(newId);
        sessions.remove(oldId, session);
        listeners.sessionIdChanged(session, oldId);
        return oldId;
    }

    /**
     * Invalidates {@code session}: {@code sessionDestroyed} (in reverse order, while the session is still
     * usable), then every attribute unbound. With {@code byApplication} the first listener exception
     * propagates to the caller after the session is gone.
     */
    void invalidate(WeftSession session, boolean byApplication) {
        if (!session.beginInvalidation()) {
            return;
        }
        sessions.remove(session.getId(), session);
        RuntimeException[] failure = new RuntimeException[1];
        try {
            listeners.sessionDestroyed(session, byApplication);
        } catch (RuntimeException e) {
            failure[0] = e;
        }
        session.finishInvalidation(e -> {
            if (failure[0] == null && byApplication) {
                failure[0] = e;
            } else {
                LOG.log(Level.WARNING, "unbinding a session attribute threw", e);
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
    }

    /** {@code HttpSession.Accessor.access}: the session with {@code id}, used as by a request. */
    void access(String id, Consumer<HttpSession> consumer) {
        WeftSession s = find(id);
        if (s == null) {
            throw new IllegalStateException("session " + id + " is invalid or its id has changed");
        }
        acquire(s, false);
        try {
            consumer.accept(s);
        } finally {
            release(s);
        }
    }

    /** Number of live sessions. */
    public int size() {
        return sessions.size();
    }

    WeftSession restore(String id, long creationTime, long lastAccessedTime, int maxInactiveInterval) {
        WeftSession s = new WeftSession(this, id, creationTime, lastAccessedTime, maxInactiveInterval);
        s.joined();
        return s;
    }

    private String newId() {
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
