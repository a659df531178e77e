package dev.weft.httpserver.core;

import com.sun.net.httpserver.Headers;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
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
 * <p>The fields live in a map of the engine's own ({@link FieldMap}): the parsers hand over names that are already
 * valid and in key form ({@code Content-type}), so filling it skips the per-field normalising and checking that
 * {@code Headers.put} does. Lookups behave exactly as the JDK's: keys are normalised the same way.
 */
public final class RequestHeaders extends FieldMap {

    private Map<String, List<String>> readOnly;
    private boolean frozen;
    private String lastValue;

    /** Empty fields, for a parser to {@link #append} to. */
    public RequestHeaders() {
        super(16);
    }

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
    public List<String> put(String key, List<String> value) {
        checkMutable();
        String k = checkedKey(key);
        for (String v : value) {
            check(v, true);
        }
        return fields.put(k, value);
    }

    @Override
    public void add(String key, String value) {
        checkMutable();
        String k = checkedKey(key);
        check(value, true);
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
}
