package dev.weft.servlet.context;

import dev.weft.servlet.mapping.UrlPattern;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;

/**
 * One filter of a context: its registration ({@code FilterRegistration.Dynamic}), its {@code FilterConfig},
 * and its life cycle: created (if registered by class) and initialized when the context starts, destroyed when
 * it is destroyed. Thread-safe.
 */
public final class FilterEntry extends RegistrationEntry implements FilterRegistration.Dynamic, FilterConfig {


    private final Class<? extends Filter> filterClass;
    private volatile Filter instance;
    private volatile boolean initialized;

    FilterEntry(ConfigurableContext context, String name, Class<? extends Filter> filterClass, Filter instance) {
        super(context, name, filterClass.getName());
        this.filterClass = filterClass;
        this.instance = instance;
    }

    @Override
    public String getFilterName() {
        return getName();
    }

    @Override
    public ServletContext getServletContext() {
        return context;
    }

    @Override
    public void addMappingForServletNames(EnumSet<DispatcherType> dispatcherTypes, boolean isMatchAfter,
                                          String... servletNames) {
        Objects.requireNonNull(servletNames, "servlet names");
        context.checkConfigurable();
        if (servletNames.length == 0) {
            throw new IllegalArgumentException("no servlet name given");
        }
        List<FilterMap> maps = new ArrayList<>();
        for (String name : servletNames) {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("empty servlet name in a filter mapping");
            }
            maps.add(new FilterMap(this, null, name, types(dispatcherTypes)));
        }
        context.registrations().addFilterMaps(maps, isMatchAfter);
    }

    @Override
    public Collection<String> getServletNameMappings() {
        List<String> names = new ArrayList<>();
        for (FilterMap m : context.registrations().filterMaps()) {
            if (m.filter() == this && m.servletName() != null) {
                names.add(m.servletName());
            }
        }
        return names;
    }

    @Override
    public void addMappingForUrlPatterns(EnumSet<DispatcherType> dispatcherTypes, boolean isMatchAfter,
                                         String... urlPatterns) {
        Objects.requireNonNull(urlPatterns, "url patterns");
        context.checkConfigurable();
        if (urlPatterns.length == 0) {
            throw new IllegalArgumentException("no url pattern given");
        }
        List<FilterMap> maps = new ArrayList<>();
        for (String pattern : urlPatterns) {
            maps.add(new FilterMap(this, UrlPattern.parse(pattern), null, types(dispatcherTypes)));
        }
        context.registrations().addFilterMaps(maps, isMatchAfter);
    }

    @Override
    public Collection<String> getUrlPatternMappings() {
        List<String> patterns = new ArrayList<>();
        for (FilterMap m : context.registrations().filterMaps()) {
            if (m.filter() == this && m.urlPattern() != null) {
                patterns.add(m.urlPattern().pattern());
            }
        }
        return patterns;
    }

    private static EnumSet<DispatcherType> types(EnumSet<DispatcherType> types) {
        return types == null || types.isEmpty() ? EnumSet.of(DispatcherType.REQUEST) : types;
    }

    /** Creates (if needed) and initializes the filter; a failure fails the context's start. */
    void init() throws ServletException {
        if (initialized) {
            return;
        }
        Filter f = instance;
        try {
            if (f == null) {
                f = instantiate(filterClass);
            }
            Filter created = f;
            context.runAsApplication(() -> created.init(this));
        } catch (ServletException e) {
            throw e;
        } catch (ReflectiveOperationException e) {
            throw new ServletException("cannot instantiate filter " + getName() + " (" + getClassName() + ")", e);
        } catch (Exception e) {
            throw new ServletException("init of filter " + getName() + " failed", e);
        }
        instance = f;
        initialized = true;
    }

    /** The initialized filter. */
    public Filter filter() {
        if (!initialized) {
            throw new IllegalStateException("filter " + getName() + " is not initialized");
        }
        return instance;
    }

    /** Calls {@code destroy} if the filter was initialized. */
    void destroyFilter() {
        if (!initialized) {
            return;
        }
        initialized = false;
        Filter f = instance;
        context.runCallback(f::destroy, "destroy of filter " + getName());
    }

    @Override
    public String toString() {
        return "filter " + getName();
    }
}
