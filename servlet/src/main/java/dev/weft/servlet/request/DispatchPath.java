package dev.weft.servlet.request;

import dev.weft.servlet.context.ServletEntry;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletMapping;

/**
 * The path elements a request shows during one dispatch (Servlet 6.1 §3.6, §9): what
 * {@code getRequestURI}, {@code getServletPath}, {@code getPathInfo}, {@code getQueryString} and
 * {@code getHttpServletMapping} return, the dispatcher type, and the servlet the dispatch goes to. Immutable.
 *
 * @param type        the dispatcher type
 * @param requestUri  the request URI (encoded, with the context path)
 * @param path        the canonical decoded path within the context ({@code servletPath + pathInfo})
 * @param servletPath the servlet path
 * @param pathInfo    the path info, or null
 * @param queryString the query string, or null
 * @param mapping     the mapping, or null for a named dispatch
 * @param servlet     the target servlet, or null when no servlet matched
 */
public record DispatchPath(DispatcherType type, String requestUri, String path, String servletPath, String pathInfo,
                           String queryString, HttpServletMapping mapping, ServletEntry servlet) {

    /** The same path elements under another dispatcher type. */
    public DispatchPath as(DispatcherType newType) {
        return new DispatchPath(newType, requestUri, path, servletPath, pathInfo, queryString, mapping, servlet);
    }
}
