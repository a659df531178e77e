package dev.weft.httpserver.core;

import com.sun.net.httpserver.Headers;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Response fields as the API's {@link Headers}, behaving as the JDK's: names are normalised to key form, and a name
 * or value with a line break (other than a folded line in a value) or a character above U+00FF is refused with
 * {@link IllegalArgumentException} when it is put; value lists can be changed in place.
 *
 * <p>The fields live in a map of the engine's own ({@link FieldMap}): a handler sets a few common fields on every
 * response ({@code Content-Type}), and their names find their key form in one lookup instead of being rebuilt as
 * the JDK's {@code Headers} does for every call.
 */
public final class ResponseHeaders extends FieldMap {

    /** Sized as the JDK's map, so that fields go out in the order they would from the JDK's {@code Headers}. */
    public ResponseHeaders() {
        super(32);
    }

    @Override
    public List<String> put(String key, List<String> value) {
        String k = checkedKey(key);
        for (String v : value) {
            check(v, true);
        }
        return fields.put(k, value);
    }

    @Override
    public void add(String key, String value) {
        String k = checkedKey(key);
        check(value, true);
        fields.computeIfAbsent(k, name -> new ArrayList<>(2)).add(value);
    }

    @Override
    public void set(String key, String value) {
        String k = checkedKey(key);
        check(value, true);
        List<String> one = new ArrayList<>(2);
        one.add(value);
        fields.put(k, one);
    }

    @Override
    public List<String> remove(Object key) {
        return fields.remove(RequestHeaders.normalize((String) key));
    }

    @Override
    public void putAll(Map<? extends String, ? extends List<String>> t) {
        t.forEach(this::put);
    }

    @Override
    public void clear() {
        fields.clear();
    }

    @Override
    public Set<String> keySet() {
        return fields.keySet();
    }

    @Override
    public Collection<List<String>> values() {
        return fields.values();
    }

    @Override
    public Set<Map.Entry<String, List<String>>> entrySet() {
        return fields.entrySet();
    }

    @Override
    public void replaceAll(BiFunction<? super String, ? super List<String>, ? extends List<String>> function) {
        fields.replaceAll((k, v) -> {
            List<String> values = Objects.requireNonNull(function.apply(k, v));
            values.forEach(value -> check(value, true));
            return values;
        });
    }
}
