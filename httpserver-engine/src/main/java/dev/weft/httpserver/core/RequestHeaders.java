package dev.weft.httpserver.core;

import com.sun.net.httpserver.Headers;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Request (or trailer) fields as the API's {@link Headers}: filled by a protocol parser, then frozen, after
 * which every mutator throws {@link UnsupportedOperationException} as the JDK's request headers do. Value
 * lists are immutable from the start.
 *
 * <p>The fields live in this class's own map rather than the superclass's: the parsers hand over names that
 * are already valid and in key form ({@code Content-type}), so filling it skips the per-field normalising
 * and checking that {@code Headers.put} does, and lookups only copy a key that is not in key form already.
 * Lookups behave exactly as the JDK's: keys are normalised the same way.
 */
public final class RequestHeaders extends Headers {

    private final HashMap<String, List<String>> fields = new HashMap<>();
    private Map<String, List<String>> readOnly;
    private boolean frozen;
    private String lastValue;

    /**
     * Adds a field during parsing; {@code name} is already in key form (as from {@code HeaderNames.normalize}
     * of HTTP/1.1, or converted by HTTP/2) and {@code value} valid.
     */
    public void append(String name, String value) {
        lastValue = value;
        List<String> existing = fields.putIfAbsent(name, List.of(value));
        if (existing != null) {
            List<String> more = new ArrayList<>(existing.size() + 1);
            more.addAll(existing);
            more.add(value);
            fields.put(name, Collections.unmodifiableList(more));
        }
    }

    /** The value of the field appended last. */
    public String lastValue() {
        return lastValue;
    }

    /** Ends parsing: from now on the headers are read-only. */
    public RequestHeaders freeze() {
        frozen = true;
        readOnly = Collections.unmodifiableMap(fields);
        return this;
    }

    private Map<String, List<String>> view() {
        return frozen ? readOnly : fields;
    }

    private void checkMutable() {
        if (frozen) {
            throw new UnsupportedOperationException("request headers are read-only");
        }
    }

    /**
     * The JDK's key normalisation (first character upper case, the rest lower case), copying only if needed: a
     * common name in its usual spellings is looked up ({@link CommonFieldNames}), others are checked and built.
     */
    public static String normalize(String key) {
        String known = CommonFieldNames.keyFormOf(Objects.requireNonNull(key));
        if (known != null) {
            return known;
        }
        int len = key.length();
        if (len == 0) {
            return key;
        }
        boolean inForm = true;
        char first = key.charAt(0);
        if (first >= 'a' && first <= 'z') {
            inForm = false;
        } else if (first == '\r' || first == '\n') {
            throw new IllegalArgumentException("illegal character in key");
        }
        for (int i = 1; i < len; i++) {
            char c = key.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                inForm = false;
            } else if (c == '\r' || c == '\n') {
                throw new IllegalArgumentException("illegal character in key");
            }
        }
        if (inForm) {
            return key;
        }
        char[] b = key.toCharArray();
        if (b[0] >= 'a' && b[0] <= 'z') {
            b[0] = (char) (b[0] - 32);
        }
        for (int i = 1; i < len; i++) {
            if (b[i] >= 'A' && b[i] <= 'Z') {
                b[i] = (char) (b[i] + 32);
            }
        }
        return new String(b);
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
        return key instanceof String k && fields.containsKey(normalize(k));
    }

    @Override
    public boolean containsValue(Object value) {
        Objects.requireNonNull(value);
        return fields.containsValue(value);
    }

    @Override
    public List<String> get(Object key) {
        return fields.get(normalize((String) key));
    }

    @Override
    public String getFirst(String key) {
        List<String> values = fields.get(normalize(key));
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public List<String> put(String key, List<String> value) {
        checkMutable();
        Headers check = new Headers();
        check.put(key, value); // the JDK's own checks of name and values
        return fields.put(normalize(key), value);
    }

    @Override
    public void add(String key, String value) {
        checkMutable();
        new Headers().add(key, value);
        String k = normalize(key);
        List<String> existing = fields.get(k);
        List<String> more = new ArrayList<>(existing == null ? 1 : existing.size() + 1);
        if (existing != null) {
            more.addAll(existing);
        }
        more.add(value);
        fields.put(k, more);
    }

    @Override
    public void set(String key, String value) {
        checkMutable();
        List<String> one = new ArrayList<>(1);
        one.add(value);
        put(key, one);
    }

    @Override
    public List<String> remove(Object key) {
        checkMutable();
        return fields.remove(normalize((String) key));
    }

    @Override
    public void putAll(Map<? extends String, ? extends List<String>> t) {
        checkMutable();
        t.forEach(this::put);
    }

    @Override
    public void clear() {
        checkMutable();
        fields.clear();
    }

    @Override
    public Set<String> keySet() {
        return view().keySet();
    }

    @Override
    public Collection<List<String>> values() {
        return view().values();
    }

    @Override
    public Set<Map.Entry<String, List<String>>> entrySet() {
        return view().entrySet();
    }

    @Override
    public void replaceAll(BiFunction<? super String, ? super List<String>, ? extends List<String>> function) {
        checkMutable();
        fields.replaceAll(function);
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
