package dev.weft.servlet.chain;

import dev.weft.servlet.context.FilterEntry;
import dev.weft.servlet.context.FilterMap;
import dev.weft.servlet.context.Registrations;
import jakarta.servlet.DispatcherType;

import java.util.ArrayList;
import java.util.List;

/**
 * Which filters apply to one dispatch (Servlet 6.1 §6.2.4): first the URL-pattern mappings that match the path,
 * in mapping order, then the servlet-name mappings that match the target servlet, each only for the dispatcher
 * types it was mapped for; a filter mapped several times runs once, at its first place. A dispatch by name
 * (no path) sees only servlet-name mappings. Stateless.
 */
public final class FilterSelection {

    private FilterSelection() {
    }

    /**
     * @param path        the canonical path within the context, or null for a named dispatch
     * @param servletName the target servlet's name, or null when the path maps to no servlet
     */
    public static List<FilterEntry> select(Registrations registrations, String path, String servletName,
                                           DispatcherType type) {
        List<FilterMap> maps = registrations.filterMaps();
        if (maps.isEmpty()) {
            return List.of();
        }
        List<FilterEntry> chain = new ArrayList<>();
        if (path != null) {
            for (FilterMap m : maps) {
                if (m.urlPattern() != null && m.appliesTo(type) && m.urlPattern().matchesFilterPath(path)
                        && !chain.contains(m.filter())) {
                    chain.add(m.filter());
                }
            }
        }
        if (servletName != null) {
            for (FilterMap m : maps) {
                if (m.matchesServlet(servletName) && m.appliesTo(type) && !chain.contains(m.filter())) {
                    chain.add(m.filter());
                }
            }
        }
        return chain;
    }
}
