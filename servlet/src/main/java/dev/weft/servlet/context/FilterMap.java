package dev.weft.servlet.context;

import dev.weft.servlet.mapping.UrlPattern;
import jakarta.servlet.DispatcherType;

import java.util.Set;

/**
 * One filter mapping (Servlet 6.1 §6.2.4): a filter applied to a URL pattern or to a servlet name ({@code *}
 * for every servlet), for some dispatcher types. Exactly one of {@code urlPattern} and {@code servletName}
 * is set. Immutable.
 */
public record FilterMap(FilterEntry filter, UrlPattern urlPattern, String servletName,
                        Set<DispatcherType> dispatcherTypes) {

    /** Copies the dispatcher types. */
    public FilterMap {
        dispatcherTypes = Set.copyOf(dispatcherTypes);
    }

    /** Whether this mapping applies to a dispatch of {@code type}. */
    public boolean appliesTo(DispatcherType type) {
        return dispatcherTypes.contains(type);
    }

    /** Whether this is a servlet-name mapping matching {@code name}. */
    public boolean matchesServlet(String name) {
        return servletName != null && (servletName.equals("*") || servletName.equals(name));
    }
}
