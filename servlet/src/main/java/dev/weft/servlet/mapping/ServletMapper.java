package dev.weft.servlet.mapping;

import jakarta.servlet.http.MappingMatch;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Maps a path within a context to a servlet by the rules of Servlet 6.1 §12.1 "Use of URL Paths": an exact
 * match, then the longest path prefix (stepping down a segment at a time), then the extension of the last
 * segment, then the default servlet; the empty pattern matches only the context root. Comparisons are
 * case-sensitive. Immutable once built; the context builds a new one when its mappings change.
 *
 * @param <T> the type of target
 */
public final class ServletMapper<T> {

    private final Map<String, Entry<T>> exact = new HashMap<>();
    private final Map<String, Entry<T>> prefix = new HashMap<>();
    private final Map<String, Entry<T>> extension = new HashMap<>();
    private final Function<T, String> names;
    private Entry<T> defaultEntry;
    private Entry<T> contextRoot;

    private record Entry<T>(T target, UrlPattern pattern) {
    }

    /** @param names the servlet name of a target, for {@link ServletPathMapping#servletName()} */
    public ServletMapper(Function<T, String> names) {
        this.names = names;
    }

    /**
     * Adds a pattern; called only while the mapper is being built.
     *
     * @throws IllegalArgumentException if the pattern is mapped already
     */
    public void add(UrlPattern pattern, T target) {
        Entry<T> entry = new Entry<>(target, pattern);
        Entry<T> previous = switch (pattern.kind()) {
            case EXACT -> exact.putIfAbsent(pattern.base(), entry);
            case PREFIX -> prefix.putIfAbsent(pattern.base(), entry);
            case EXTENSION -> extension.putIfAbsent(pattern.base(), entry);
            case DEFAULT -> {
                Entry<T> old = defaultEntry;
                if (old == null) {
                    defaultEntry = entry;
                }
                yield old;
            }
            case CONTEXT_ROOT -> {
                Entry<T> old = contextRoot;
                if (old == null) {
                    contextRoot = entry;
                }
                yield old;
            }
        };
        if (previous != null) {
            throw new IllegalArgumentException("url pattern " + pattern.pattern() + " is mapped twice");
        }
    }

    /**
     * Maps {@code path} (canonical, within the context, starting with {@code /}).
     *
     * @return the match, or null when no pattern matches and there is no default servlet
     */
    public PathMatch<T> map(String path) {
        if (path.equals("/") && contextRoot != null) {
            return match(contextRoot, "", "/", "", MappingMatch.CONTEXT_ROOT);
        }
        Entry<T> e = exact.get(path);
        if (e != null) {
            return match(e, path, null, path.substring(1), MappingMatch.EXACT);
        }
        if (!prefix.isEmpty()) {
            String candidate = path;
            while (true) {
                e = prefix.get(candidate);
                if (e != null) {
                    String pathInfo = candidate.length() == path.length() ? null : path.substring(candidate.length());
                    String matchValue = pathInfo == null ? "" : pathInfo.substring(1);
                    return match(e, candidate, pathInfo, matchValue, MappingMatch.PATH);
                }
                if (candidate.isEmpty()) {
                    break;
                }
                candidate = candidate.substring(0, candidate.lastIndexOf('/'));
            }
        }
        String ext = UrlPattern.extensionOf(path);
        if (ext != null) {
            e = extension.get(ext);
            if (e != null) {
                String matchValue = path.substring(1, path.length() - ext.length() - 1);
                return match(e, path, null, matchValue, MappingMatch.EXTENSION);
            }
        }
        if (defaultEntry != null) {
            return match(defaultEntry, path, null, "", MappingMatch.DEFAULT);
        }
        return null;
    }

    /** Whether a servlet is mapped to the context root with the empty pattern. */
    public boolean hasContextRootMapping() {
        return contextRoot != null;
    }

    private PathMatch<T> match(Entry<T> e, String servletPath, String pathInfo, String matchValue, MappingMatch kind) {
        ServletPathMapping mapping = new ServletPathMapping(matchValue, e.pattern().pattern(), names.apply(e.target()),
                kind);
        return new PathMatch<>(e.target(), servletPath, pathInfo, mapping);
    }
}
