package dev.weft.servlet.dispatch;

import jakarta.servlet.ServletException;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the error page for a status code or an exception (Servlet 6.1 §10.9.2): an exception matches the page of
 * its closest type in the class hierarchy; failing that, a {@link ServletException}'s root cause gets a second
 * pass. A status matches its own page, else the default page; an exception without a page of its type is answered
 * by the page of its status. Immutable.
 */
public final class ErrorPages {

    private final Map<Integer, String> byStatus = new HashMap<>();
    private final Map<Class<?>, String> byException = new HashMap<>();
    private final String defaultPage;

    public ErrorPages(List<ErrorPageEntry> entries) {
        String global = null;
        for (ErrorPageEntry e : entries) {
            if (e.exceptionType() != null) {
                byException.putIfAbsent(e.exceptionType(), e.location());
            } else if (e.status() > 0) {
                byStatus.putIfAbsent(e.status(), e.location());
            } else if (global == null) {
                global = e.location();
            }
        }
        this.defaultPage = global;
    }

    /** The page for {@code status}, or null. */
    public String forStatus(int status) {
        String page = byStatus.get(status);
        return page != null ? page : defaultPage;
    }

    /** The page for the type of {@code t}, else of a {@link ServletException}'s root cause; null if none. */
    public String forExceptionType(Throwable t) {
        String page = byType(t);
        if (page == null && t instanceof ServletException se && se.getRootCause() != null) {
            page = byType(se.getRootCause());
        }
        return page;
    }

    private String byType(Throwable t) {
        for (Class<?> c = t.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            String page = byException.get(c);
            if (page != null) {
                return page;
            }
        }
        return null;
    }
}
