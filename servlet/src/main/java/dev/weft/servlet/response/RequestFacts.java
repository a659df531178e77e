package dev.weft.servlet.response;

/**
 * What the response needs to know of its request (implemented by the request, so this package does not depend
 * on it): the method, the URL parts a redirect is resolved against, the session id to put in URLs, and the
 * request's asynchronous state.
 */
public interface RequestFacts {

    /** Whether the request is a HEAD (the body is counted, not sent). */
    boolean isHead();

    /** Whether the request's protocol can carry trailer fields (not HTTP/1.0). */
    boolean trailersAllowed();

    /** {@code http} or {@code https}. */
    String scheme();

    /** The host the client addressed. */
    String serverName();

    /** The port the client addressed. */
    int serverPort();

    /** The request URI of the current dispatch, still encoded. */
    String requestUri();

    /** The session id to encode into URLs (URL tracking is on and the client did not send a cookie), or null. */
    String sessionIdForUrls();

    /** The path parameter name that carries a session id ({@code jsessionid} by default). */
    String sessionUrlParameter();

    /** Whether the request is in asynchronous mode (for non-blocking output). */
    boolean asyncStarted();

    /** Adds the session cookie again after {@code reset()}, if this request created or changed the session. */
    void restoreSessionCookie();
}
