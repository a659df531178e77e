package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The contexts of one server and the lookup of a request path's context: the longest context path that
 * matches whole path segments (the JDK 27 default, {@code pathPrefix}): {@code /foo} serves {@code /foo},
 * {@code /foo/} and {@code /foo/bar}, not {@code /foobar}.
 */
final class ContextRegistry {

    private final Map<String, WeftHttpContext> byPath = new ConcurrentHashMap<>();

    WeftHttpContext create(String path, HttpHandler handler, HttpServer server) {
        Objects.requireNonNull(path, "null path parameter");
        if (path.isEmpty() || path.charAt(0) != '/') {
            throw new IllegalArgumentException("Illegal value for path or protocol");
        }
        WeftHttpContext ctx = new WeftHttpContext(path, handler, server);
        if (byPath.putIfAbsent(path, ctx) != null) {
            throw new IllegalArgumentException("cannot add context to list");
        }
        return ctx;
    }

    void remove(String path) {
        Objects.requireNonNull(path, "null path parameter");
        if (byPath.remove(path) == null) {
            throw new IllegalArgumentException("cannot remove element from list");
        }
    }

    void remove(HttpContext context) {
        Objects.requireNonNull(context, "null context parameter");
        if (!(context instanceof WeftHttpContext) || !byPath.remove(context.getPath(), context)) {
            throw new IllegalArgumentException("wrong HttpContext type or context not registered");
        }
    }

    /** The context serving {@code path}, or {@code null}. */
    WeftHttpContext find(String path) {
        WeftHttpContext exact = byPath.get(path);
        if (exact != null) {
            return exact;
        }
        // Walk up segment by segment: /a/b/c -> /a/b/ -> /a/b -> /a/ -> /a -> /
        int end = path.length();
        while (end > 0) {
            int slash = path.lastIndexOf('/', end - 1);
            if (slash < 0) {
                break;
            }
            WeftHttpContext withSlash = byPath.get(path.substring(0, slash + 1));
            if (withSlash != null) {
                return withSlash;
            }
            if (slash > 0) {
                WeftHttpContext bare = byPath.get(path.substring(0, slash));
                if (bare != null) {
                    return bare;
                }
            }
            end = slash;
        }
        return null;
    }
}
