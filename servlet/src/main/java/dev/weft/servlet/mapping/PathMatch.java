package dev.weft.servlet.mapping;

/**
 * The result of mapping a path to a servlet: the target, the path split into servlet path and path info
 * ({@code contextPath + servletPath + pathInfo} is the request path), and the mapping as the request reports it.
 *
 * @param target      what the path maps to
 * @param servletPath the part matched by the pattern ({@code ""} for {@code /*} and the context root)
 * @param pathInfo    the rest, starting with {@code /}, or null
 * @param mapping     the match for {@code getHttpServletMapping()}
 * @param <T>         the type of target
 */
public record PathMatch<T>(T target, String servletPath, String pathInfo, ServletPathMapping mapping) {
}
