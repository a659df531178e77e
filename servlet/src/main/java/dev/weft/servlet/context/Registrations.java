package dev.weft.servlet.context;

import dev.weft.servlet.mapping.PathMatch;
import dev.weft.servlet.mapping.ServletMapper;
import dev.weft.servlet.mapping.UrlPattern;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The servlets, filters and mappings of a context, with the servlet mapper built from them. Changed only while
 * the context is configured (under this object's monitor, never around application code); read on every
 * request through immutable snapshots.
 */
public final class Registrations {

    private final Map<String, ServletEntry> servlets = new LinkedHashMap<>();
    private final Map<String, FilterEntry> filters = new LinkedHashMap<>();
    private final Map<String, ServletEntry> patterns = new HashMap<>();
    private final Set<ServletEntry> overridable = new LinkedHashSet<>();
    private final List<FilterMap> filterMaps = new ArrayList<>();
    private int insertPoint;
    private volatile ServletMapper<ServletEntry> mapper = new ServletMapper<>(ServletEntry::getName);
    private volatile List<FilterMap> filterMapSnapshot = List.of();

    synchronized boolean addServlet(ServletEntry entry) {
        return servlets.putIfAbsent(entry.getName(), entry) == null;
    }

    synchronized boolean addFilter(FilterEntry entry) {
        return filters.putIfAbsent(entry.getName(), entry) == null;
    }

    /** The servlet named {@code name}, or null. */
    public synchronized ServletEntry servlet(String name) {
        return servlets.get(name);
    }

    /** The filter named {@code name}, or null. */
    public synchronized FilterEntry filter(String name) {
        return filters.get(name);
    }

    /** Every servlet, in registration order. */
    public synchronized List<ServletEntry> servlets() {
        return List.copyOf(servlets.values());
    }

    /** Every filter, in registration order. */
    public synchronized List<FilterEntry> filters() {
        return List.copyOf(filters.values());
    }

    /** The filter mappings in chain order. */
    public List<FilterMap> filterMaps() {
        return filterMapSnapshot;
    }

    /** Maps {@code path} (canonical, within the context) to a servlet; null when nothing matches. */
    public PathMatch<ServletEntry> map(String path) {
        return mapper.map(path);
    }

    /** Whether the empty pattern maps the context root. */
    public boolean hasContextRootMapping() {
        return mapper.hasContextRootMapping();
    }

    /**
     * Marks the mappings of {@code entry} (the container's default servlet) as giving way to an application
     * servlet mapped to the same pattern.
     */
    synchronized void overridable(ServletEntry entry) {
        overridable.add(entry);
    }

    /**
     * Maps {@code urlPatterns} to {@code entry}, unless one of them is mapped to another servlet.
     *
     * @return the conflicting patterns (nothing is mapped then)
     * @throws IllegalArgumentException for an invalid pattern
     */
    synchronized Set<String> mapServlet(ServletEntry entry, List<String> urlPatterns) {
        Set<String> conflicts = new LinkedHashSet<>();
        List<UrlPattern> parsed = new ArrayList<>();
        for (String p : urlPatterns) {
            parsed.add(UrlPattern.parse(p));
            ServletEntry existing = patterns.get(p);
            if (existing != null && existing != entry && !overridable.contains(existing)) {
                conflicts.add(p);
            }
        }
        if (!conflicts.isEmpty()) {
            return conflicts;
        }
        for (String p : urlPatterns) {
            patterns.put(p, entry);
        }
        rebuildMapper();
        return conflicts;
    }

    synchronized void addFilterMaps(Collection<FilterMap> maps, boolean matchAfter) {
        if (matchAfter) {
            filterMaps.addAll(maps);
        } else {
            filterMaps.addAll(insertPoint, maps);
            insertPoint += maps.size();
        }
        filterMapSnapshot = List.copyOf(filterMaps);
    }

    private void rebuildMapper() {
        ServletMapper<ServletEntry> m = new ServletMapper<>(ServletEntry::getName);
        patterns.forEach((p, e) -> m.add(UrlPattern.parse(p), e));
        mapper = m;
    }
}
