package dev.weft.httpserver.core;

import com.sun.net.httpserver.Headers;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Request (or trailer) fields as the API's {@link Headers}: filled by the parser, then frozen, after which
 * every mutator throws {@link UnsupportedOperationException} as the JDK's request headers do. Value lists
 * are immutable from the start.
 */
public final class RequestHeaders extends Headers {

    private boolean frozen;
    private Map<String, List<String>> readOnlyView;
    /** Names added so far, to find repeats without a map lookup (each lookup allocates a key). */
    private String[] names = new String[8];
    private int nameCount;
    private String lastValue;

    /**
     * Adds a field during parsing; {@code name} is already in normalised key form (as from
     * {@code HeaderNames.normalize} of HTTP/1.1, or lower-cased by HTTP/2), so equal names are equal strings.
     */
    public void append(String name, String value) {
        lastValue = value;
        for (int i = 0; i < nameCount; i++) {
            if (names[i].equals(name)) {
                List<String> existing = super.get(name);
                List<String> more = new ArrayList<>(existing.size() + 1);
                more.addAll(existing);
                more.add(value);
                super.put(name, Collections.unmodifiableList(more));
                return;
            }
        }
        if (nameCount == names.length) {
            names = java.util.Arrays.copyOf(names, nameCount * 2);
        }
        names[nameCount++] = name;
        super.put(name, List.of(value));
    }

    /** The value of the field appended last. */
    public String lastValue() {
        return lastValue;
    }

    /** Ends parsing: from now on the headers are read-only. */
    public RequestHeaders freeze() {
        frozen = true;
        return this;
    }

    private void checkMutable() {
        if (frozen) {
            throw new UnsupportedOperationException("request headers are read-only");
        }
    }

    private Map<String, List<String>> view() {
        if (readOnlyView == null) {
            readOnlyView = Collections.unmodifiableMap(new AbstractMap<>() {
                @Override
                public Set<Entry<String, List<String>>> entrySet() {
                    return RequestHeaders.super.entrySet();
                }
            });
        }
        return readOnlyView;
    }

    @Override
    public Set<Map.Entry<String, List<String>>> entrySet() {
        return frozen ? view().entrySet() : super.entrySet();
    }

    @Override
    public Set<String> keySet() {
        return frozen ? view().keySet() : super.keySet();
    }

    @Override
    public Collection<List<String>> values() {
        return frozen ? view().values() : super.values();
    }

    @Override
    public void add(String key, String value) {
        checkMutable();
        super.add(key, value);
    }

    @Override
    public void set(String key, String value) {
        checkMutable();
        super.set(key, value);
    }

    @Override
    public List<String> put(String key, List<String> value) {
        checkMutable();
        return super.put(key, value);
    }

    @Override
    public void putAll(Map<? extends String, ? extends List<String>> t) {
        checkMutable();
        super.putAll(t);
    }

    @Override
    public List<String> remove(Object key) {
        checkMutable();
        return super.remove(key);
    }

    @Override
    public void clear() {
        checkMutable();
        super.clear();
    }

    @Override
    public void replaceAll(BiFunction<? super String, ? super List<String>, ? extends List<String>> function) {
        checkMutable();
        super.replaceAll(function);
    }
}
