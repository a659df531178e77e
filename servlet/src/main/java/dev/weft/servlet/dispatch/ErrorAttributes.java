package dev.weft.servlet.dispatch;

import dev.weft.servlet.request.DispatchPath;
import dev.weft.servlet.request.WeftRequest;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;

/**
 * The {@code jakarta.servlet.error.*} request attributes of an error dispatch (Servlet 6.1 §10.9.1, Table 10-1).
 * Where the specification leaves their values open, they are Tomcat's, so that what an application builds from
 * them (Spring Boot's error body, say) reads the same on Weft:
 * <ul>
 * <li>an exception on an exception-type page: {@code exception} (and its {@code exception_type}) is the root cause
 * of a {@link ServletException} that has one, else the exception itself; {@code message} is the thrown exception's
 * own message;</li>
 * <li>an exception on a status or the default page: {@code exception} is the exception as thrown; {@code message}
 * is the (absent) {@code sendError} message, so empty: the message of the exception, or of its cause, is the
 * application's to read from the exception;</li>
 * <li>{@code sendError}: {@code message} is its message; exception attributes the application set are kept.</li>
 * </ul>
 * {@code message} is never null: empty when there is none.
 */
final class ErrorAttributes {

    private ErrorAttributes() {
    }

    /**
     * Sets the attributes for an error with {@code status} that arose in {@code at}: from {@code failure} when not
     * null ({@code onTypePage} says whether it found an exception-type page), else from {@code sendError}'s
     * {@code message}.
     */
    static void set(WeftRequest request, DispatchPath at, String method, int status, Throwable failure,
            boolean onTypePage, String message) {
        request.setContainerAttribute(RequestDispatcher.ERROR_STATUS_CODE, status);
        String text = message;
        if (failure != null) {
            Throwable reported = onTypePage ? rootCause(failure) : failure;
            request.setContainerAttribute(RequestDispatcher.ERROR_EXCEPTION, reported);
            request.setContainerAttribute(RequestDispatcher.ERROR_EXCEPTION_TYPE, reported.getClass());
            text = onTypePage ? failure.getMessage() : message;
        }
        request.setContainerAttribute(RequestDispatcher.ERROR_MESSAGE, text == null ? "" : text);
        request.setContainerAttribute(RequestDispatcher.ERROR_REQUEST_URI, at.requestUri());
        request.setContainerAttribute(RequestDispatcher.ERROR_QUERY_STRING, at.queryString());
        request.setContainerAttribute(RequestDispatcher.ERROR_SERVLET_NAME,
                at.servlet() == null ? null : at.servlet().getName());
        request.setContainerAttribute(RequestDispatcher.ERROR_METHOD, method);
    }

    /** The root cause of a {@link ServletException} that has one, else {@code t}. */
    static Throwable rootCause(Throwable t) {
        return t instanceof ServletException se && se.getRootCause() != null ? se.getRootCause() : t;
    }
}
