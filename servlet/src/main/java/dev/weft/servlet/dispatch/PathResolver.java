package dev.weft.servlet.dispatch;

import dev.weft.servlet.context.ServletEntry;
import dev.weft.servlet.context.WeftServletContext;
import dev.weft.servlet.mapping.PathMatch;
import dev.weft.servlet.request.DispatchPath;
import dev.weft.servlet.request.RelativePaths;
import jakarta.servlet.DispatcherType;

/**
 * Turns a context-relative path (decoded, possibly with a query string) into the path elements of a dispatch to
 * it: the path normalized, mapped to a servlet, split into servlet path and path info. Stateless apart from the
 * context it maps in.
 */
final class PathResolver {

    private final WeftServletContext context;

    PathResolver(WeftServletContext context) {
        this.context = context;
    }

    /** The dispatch to {@code pathWithQuery}, or null when the path climbs out of the context. */
    DispatchPath resolve(String pathWithQuery, DispatcherType type) {
        int q = pathWithQuery.indexOf('?');
        String path = q < 0 ? pathWithQuery : pathWithQuery.substring(0, q);
        String query = q < 0 ? null : pathWithQuery.substring(q + 1);
        if (path.isEmpty()) {
            path = "/";
        }
        String normalized = RelativePaths.resolve("/", path.substring(1));
        if (normalized == null) {
            return null;
        }
        return toDispatch(normalized, context.getContextPath() + normalized, query, type);
    }

    /** The dispatch for canonical {@code path}, shown with {@code requestUri}. */
    DispatchPath toDispatch(String path, String requestUri, String query, DispatcherType type) {
        PathMatch<ServletEntry> match = context.registrations().map(path);
        if (match == null) {
            return new DispatchPath(type, requestUri, path, path, null, query, null, null);
        }
        return new DispatchPath(type, requestUri, path, match.servletPath(), match.pathInfo(), query,
                match.mapping(), match.target());
    }
}
