package dev.weft.servlet.request;

import dev.weft.servlet.context.WeftServletContext;
import dev.weft.servlet.response.WeftResponse;
import dev.weft.servlet.session.SessionManager;
import dev.weft.servlet.session.WeftSession;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.http.Cookie;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The request's side of session tracking (Servlet 6.1 §7.1): which session id the client sent (a cookie, a
 * {@code ;jsessionid=} path parameter, or the TLS session, per the effective tracking modes), the session this
 * request uses, creating one and sending its cookie, changing its id, and releasing it when the request ends.
 * Used by the request's threads one at a time.
 */
final class SessionTracker {

    private final WeftServletContext context;
    private final SessionManager sessions;
    private final WeftResponse response;
    private final Cookie[] cookies;
    private final String rawPath;
    private final ConnectionFacts connection;
    private final List<WeftSession> acquired = new ArrayList<>(1);
    private boolean resolved;
    private String requestedId;
    private boolean fromCookie;
    private boolean fromUrl;
    private WeftSession session;
    private boolean cookieSentHere;

    SessionTracker(WeftServletContext context, WeftResponse response, Cookie[] cookies, String rawPath,
                   ConnectionFacts connection) {
        this.context = context;
        this.sessions = context.sessions();
        this.response = response;
        this.cookies = cookies;
        this.rawPath = rawPath;
        this.connection = connection;
    }

    private void resolve() {
        if (resolved) {
            return;
        }
        resolved = true;
        Set<SessionTrackingMode> modes = sessions.trackingModes();
        if (modes.contains(SessionTrackingMode.SSL)) {
            requestedId = connection.tlsSessionId();
            return;
        }
        if (modes.contains(SessionTrackingMode.COOKIE)) {
            String name = sessions.cookie().getName();
            for (Cookie c : cookies) {
                if (c.getName().equals(name)) {
                    if (requestedId == null || sessions.find(c.getValue()) != null) {
                        requestedId = c.getValue(); // the first one that names a live session wins
                        fromCookie = true;
                        if (sessions.find(requestedId) != null) {
                            break;
                        }
                    }
                }
            }
        }
        if (requestedId == null && modes.contains(SessionTrackingMode.URL)) {
            String param = ";" + urlParameter() + "=";
            int at = rawPath.indexOf(param);
            if (at >= 0) {
                int start = at + param.length();
                int end = start;
                while (end < rawPath.length() && rawPath.charAt(end) != ';' && rawPath.charAt(end) != '/') {
                    end++;
                }
                requestedId = rawPath.substring(start, end);
                fromUrl = !requestedId.isEmpty();
                if (requestedId.isEmpty()) {
                    requestedId = null;
                }
            }
        }
    }

    String urlParameter() {
        String name = sessions.cookie().getName();
        return name.equals("JSESSIONID") ? "jsessionid" : name;
    }

    String requestedId() {
        resolve();
        return requestedId;
    }

    boolean fromCookie() {
        resolve();
        return fromCookie;
    }

    boolean fromUrl() {
        resolve();
        return fromUrl;
    }

    boolean requestedIdValid() {
        resolve();
        return requestedId != null && sessions.find(requestedId) != null;
    }

    /** The request's session: the current one, the one the client named, or (with {@code create}) a new one. */
    WeftSession session(boolean create) {
        if (session != null && session.isValid()) {
            return session;
        }
        resolve();
        session = null;
        WeftSession found = requestedId == null ? null : sessions.find(requestedId);
        if (found != null) {
            sessions.acquire(found, true);
            acquired.add(found);
            session = found;
            return found;
        }
        if (!create) {
            return null;
        }
        if (response.isCommitted()) {
            throw new IllegalStateException("cannot create a session after the response was committed");
        }
        boolean ssl = sessions.trackingModes().contains(SessionTrackingMode.SSL);
        WeftSession created = sessions.create(ssl ? requestedId : null);
        sessions.acquire(created, false);
        acquired.add(created);
        session = created;
        sendCookie();
        return created;
    }

    /** {@code changeSessionId()}: the session gets a new id, sent to the client. */
    String changeId() {
        WeftSession s = session(false);
        if (s == null) {
            throw new IllegalStateException("the request has no session");
        }
        sessions.changeId(s);
        sendCookie();
        return s.getId();
    }

    private void sendCookie() {
        if (session != null && sessions.trackingModes().contains(SessionTrackingMode.COOKIE)) {
            response.addSessionCookie(sessions.cookie().cookieFor(session.getId(), context.getContextPath(),
                    connection.isSecure()));
            cookieSentHere = true;
        }
    }

    /** After {@code reset()}: the cookie of a session created or changed by this request is sent again. */
    void restoreCookie() {
        if (cookieSentHere && session != null && session.isValid()) {
            sendCookie();
        }
    }

    /** The id to encode in URLs: URL tracking on, a valid session, and no cookie from the client. */
    String idForUrls() {
        if (!sessions.trackingModes().contains(SessionTrackingMode.URL)) {
            return null;
        }
        WeftSession s = session != null && session.isValid() ? session : null;
        if (s == null || fromCookie()) {
            return null;
        }
        return s.getId();
    }

    /** The request ended: every session it used is released (its last access time updated). */
    void release() {
        for (WeftSession s : acquired) {
            sessions.release(s);
        }
        acquired.clear();
    }
}
