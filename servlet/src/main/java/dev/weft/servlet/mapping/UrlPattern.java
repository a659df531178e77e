package dev.weft.servlet.mapping;

import java.util.Objects;

/**
 * A servlet or filter URL pattern (Servlet 6.1 §12.2 "Specification of Mappings"): {@code /path/*} (path
 * prefix), {@code *.ext} (extension), {@code ""} (the context root), {@code /} (the default servlet) or any other
 * string starting with {@code /} (exact). Immutable.
 *
 * @param pattern the pattern as registered
 * @param kind    which of the five forms it is
 * @param base    the prefix without {@code /*} (PREFIX, {@code ""} for {@code /*}), the extension without
 *                {@code *.} (EXTENSION), or the pattern (EXACT, DEFAULT, CONTEXT_ROOT)
 */
public record UrlPattern(String pattern, Kind kind, String base) {

    /** The five forms of a pattern, in the order the mapping rules try them (context root aside). */
    public enum Kind {
        /** The empty string: exactly the context root. */
        CONTEXT_ROOT,
        /** Any other string starting with {@code /}. */
        EXACT,
        /** {@code /path/*}, including {@code /*}. */
        PREFIX,
        /** {@code *.ext}. */
        EXTENSION,
        /** {@code /}. */
        DEFAULT
    }

    /**
     * Parses a pattern.
     *
     * @throws IllegalArgumentException for a pattern of none of the forms (e.g. {@code foo}, {@code *.a/b},
     *                                  {@code /a/*.b})
     */
    public static UrlPattern parse(String pattern) {
        Objects.requireNonNull(pattern, "url pattern");
        if (pattern.isEmpty()) {
            return new UrlPattern(pattern, Kind.CONTEXT_ROOT, "");
        }
        if (pattern.equals("/")) {
            return new UrlPattern(pattern, Kind.DEFAULT, "/");
        }
        if (pattern.startsWith("*.")) {
            String ext = pattern.substring(2);
            if (ext.isEmpty() || ext.indexOf('/') >= 0 || ext.indexOf('*') >= 0) {
                throw new IllegalArgumentException("invalid extension pattern: " + pattern);
            }
            return new UrlPattern(pattern, Kind.EXTENSION, ext);
        }
        if (pattern.charAt(0) != '/') {
            throw new IllegalArgumentException("url pattern must start with / or *.: " + pattern);
        }
        if (pattern.endsWith("/*")) {
            String base = pattern.substring(0, pattern.length() - 2);
            if (base.indexOf('*') >= 0) {
                throw new IllegalArgumentException("'*' only allowed as the last segment: " + pattern);
            }
            return new UrlPattern(pattern, Kind.PREFIX, base);
        }
        if (pattern.indexOf('*') >= 0 && pattern.contains("*.")) {
            throw new IllegalArgumentException("extension pattern must start with *.: " + pattern);
        }
        return new UrlPattern(pattern, Kind.EXACT, pattern);
    }

    /**
     * Whether this pattern matches {@code path} (a path within the context, starting with {@code /}) the way a
     * filter mapping does: the default pattern matches every path.
     */
    public boolean matchesFilterPath(String path) {
        return switch (kind) {
            case CONTEXT_ROOT -> path.equals("/") || path.isEmpty();
            case EXACT -> path.equals(base);
            case PREFIX -> base.isEmpty() || path.startsWith(base)
                    && (path.length() == base.length() || path.charAt(base.length()) == '/');
            case EXTENSION -> extensionOf(path) != null && extensionOf(path).equals(base);
            case DEFAULT -> true;
        };
    }

    /** The extension of the last segment of {@code path} (after its last dot), or null. */
    static String extensionOf(String path) {
        int slash = path.lastIndexOf('/');
        int dot = path.lastIndexOf('.');
        return dot > slash && dot < path.length() - 1 ? path.substring(dot + 1) : null;
    }
}
