package dev.weft.servlet;

import java.util.Objects;

/**
 * An error page (Servlet 6.1 §10.9.2): the context-relative location the container dispatches to (as GET, with
 * the {@code jakarta.servlet.error.*} attributes) when a request ends with {@code sendError(status)} or an
 * exception. A page for an exception type matches that type and its subclasses (the closest wins); a page with
 * neither status nor type is the default page. Immutable.
 *
 * @param status        the status code it is for, or 0
 * @param exceptionType the exception type it is for, or null
 * @param location      the page's path, starting with {@code /}
 */
public record ErrorPage(int status, Class<? extends Throwable> exceptionType, String location) {

    /** Validates the location and that at most one of status and type is set. */
    public ErrorPage {
        Objects.requireNonNull(location, "location");
        if (!location.startsWith("/")) {
            throw new IllegalArgumentException("error page location must start with /: " + location);
        }
        if (status != 0 && (status < 400 || status > 599)) {
            throw new IllegalArgumentException("error page status must be 4xx or 5xx: " + status);
        }
        if (status != 0 && exceptionType != null) {
            throw new IllegalArgumentException("an error page is for a status or an exception type, not both");
        }
    }

    /** The page for {@code status}. */
    public static ErrorPage forStatus(int status, String location) {
        return new ErrorPage(status, null, location);
    }

    /** The page for exceptions of {@code type} and its subclasses. */
    public static ErrorPage forException(Class<? extends Throwable> type, String location) {
        return new ErrorPage(0, Objects.requireNonNull(type, "exception type"), location);
    }

    /** The default page, for every error no other page matches. */
    public static ErrorPage global(String location) {
        return new ErrorPage(0, null, location);
    }
}
