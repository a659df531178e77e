package dev.weft.servlet.context;

import jakarta.servlet.Registration;

import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What servlet and filter registrations share: name, class, init parameters and async support, changeable
 * only while the context is being configured. Thread-safe.
 */
abstract class RegistrationEntry implements Registration.Dynamic {

    final ConfigurableContext context;
    private final String name;
    private final String className;
    private final Map<String, String> initParameters = new LinkedHashMap<>();
    private volatile boolean asyncSupported;

    RegistrationEntry(ConfigurableContext context, String name, String className) {
        this.context = context;
        this.name = name;
        this.className = className;
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getClassName() {
        return className;
    }

    @Override
    public boolean setInitParameter(String name, String value) {
        if (name == null || value == null) {
            throw new IllegalArgumentException("init parameter name and value must not be null");
        }
        context.checkConfigurable();
        synchronized (initParameters) {
            return initParameters.putIfAbsent(name, value) == null;
        }
    }

    @Override
    public String getInitParameter(String name) {
        synchronized (initParameters) {
            return initParameters.get(name);
        }
    }

    @Override
    public Set<String> setInitParameters(Map<String, String> parameters) {
        context.checkConfigurable();
        Set<String> conflicts = new HashSet<>();
        synchronized (initParameters) {
            for (Map.Entry<String, String> e : parameters.entrySet()) {
                if (e.getKey() == null || e.getValue() == null) {
                    throw new IllegalArgumentException("init parameter name and value must not be null");
                }
                if (initParameters.containsKey(e.getKey())) {
                    conflicts.add(e.getKey());
                }
            }
            if (conflicts.isEmpty()) {
                initParameters.putAll(parameters);
            }
        }
        return conflicts;
    }

    @Override
    public Map<String, String> getInitParameters() {
        synchronized (initParameters) {
            return Collections.unmodifiableMap(new LinkedHashMap<>(initParameters));
        }
    }

    /** Init parameter names, for {@code ServletConfig}/{@code FilterConfig}. */
    public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(getInitParameters().keySet());
    }

    @Override
    public void setAsyncSupported(boolean asyncSupported) {
        context.checkConfigurable();
        this.asyncSupported = asyncSupported;
    }

    /** Whether the component supports asynchronous processing. */
    public boolean isAsyncSupported() {
        return asyncSupported;
    }

    /** Instantiates {@code type} with its public no-argument constructor. */
    static <T> T instantiate(Class<T> type) throws ReflectiveOperationException {
        Objects.requireNonNull(type, "class");
        return type.getDeclaredConstructor().newInstance();
    }
}
