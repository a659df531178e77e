package dev.weft.httpserver.core;

import com.sun.net.httpserver.Headers;

import java.util.HashMap;
import java.util.List;
import java.util.Objects;

/**
 * The API's {@link Headers} over a map of the engine's own instead of the superclass's: lookups normalise names as
 * the JDK does ({@link RequestHeaders#normalize}, which finds a common name's usual spellings in one lookup), names
 * and values put are checked as the JDK checks them, and the subclasses decide what may change.
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

    /** {@code key} checked and in key form; a common name's usual spelling needs no check. */
    static String checkedKey(String key) {
        String known = CommonFieldNames.keyFormOf(key);
        if (known != null) {
            return known;
        }
        check(key, false);
        return RequestHeaders.normalize(key);
    }

    /**
     * Refuses a line break, unless {@code value} and it folds the line (CR LF then a space or tab), and a character
     * above U+00FF.
     */
    static void check(String s, boolean value) {
        int len = s.length();
        for (int i = 0; i < len; i++) {
            char c = s.charAt(i);
            if (c == '\r') {
                if (!value || i + 2 >= len || s.charAt(i + 1) != '\n'
                        || s.charAt(i + 2) != ' ' && s.charAt(i + 2) != '\t') {
                    throw new IllegalArgumentException("CR in a field " + (value ? "value" : "name")
                            + " that does not fold a line");
                }
                i += 2;
            } else if (c == '\n') {
                throw new IllegalArgumentException("LF in a field " + (value ? "value" : "name"));
            } else if (c > 0xff) {
                throw new IllegalArgumentException("character above U+00FF in a field " + (value ? "value" : "name"));
            }
        }
    }
}
