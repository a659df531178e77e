package dev.weft.httpserver.core;

import com.sun.net.httpserver.Headers;

import java.util.HashMap;
import java.util.List;
import java.util.Objects;

/**
 * The API's {@link Headers} over a map of the engine's own instead of the superclass's: lookups normalise names as
 * the JDK does ({@link RequestHeaders#normalize}, which finds a common name's usual spellings in one lookup), and
 * the subclasses decide what may change.
 */
abstract class FieldMap extends Headers {

    final HashMap<String, List<String>> fields;

    FieldMap(int capacity) {
        this.fields = new HashMap<>(capacity);
    }

    @Override
    public int size() {
        return fields.size();
    }

    @Override
    public boolean isEmpty() {
        return fields.isEmpty();
    }

    @Override
    public boolean containsKey(Object key) {
        Objects.requireNonNull(key);
        return key instanceof String k && fields.containsKey(RequestHeaders.normalize(k));
    }

    @Override
    public boolean containsValue(Object value) {
        Objects.requireNonNull(value);
        return fields.containsValue(value);
    }

    @Override
    public List<String> get(Object key) {
        return fields.get(RequestHeaders.normalize((String) key));
    }

    @Override
    public String getFirst(String key) {
        List<String> values = fields.get(RequestHeaders.normalize(key));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public boolean equals(Object o) {
        return fields.equals(o);
    }

    @Override
    public int hashCode() {
        return fields.hashCode();
    }

    @Override
    public String toString() {
        return "Headers { " + fields + " }";
    }
}
