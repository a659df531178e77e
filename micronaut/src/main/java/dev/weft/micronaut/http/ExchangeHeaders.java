package dev.weft.micronaut.http;

import com.sun.net.httpserver.Headers;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.convert.ConversionService;
import io.micronaut.http.MutableHttpHeaders;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Micronaut's view of an exchange's request (or response) header fields, read and written in place on the
 * engine's case-insensitive {@link Headers}: no copy per request.
 */
public final class ExchangeHeaders implements MutableHttpHeaders {

    private final Headers headers;
    private ConversionService conversionService;

    public ExchangeHeaders(Headers headers, ConversionService conversionService) {
        this.headers = Objects.requireNonNull(headers, "headers");
        this.conversionService = conversionService;
    }

    @Override
    public MutableHttpHeaders add(CharSequence header, CharSequence value) {
        headers.add(header.toString(), value.toString());
        return this;
    }

    @Override
    public MutableHttpHeaders set(CharSequence header, CharSequence value) {
        headers.set(header.toString(), value.toString());
        return this;
    }

    @Override
    public MutableHttpHeaders remove(CharSequence header) {
        headers.remove(header.toString());
        return this;
    }

    @Override
    public void setConversionService(ConversionService conversionService) {
        this.conversionService = conversionService;
    }

    @Override
    public List<String> getAll(CharSequence name) {
        List<String> values = headers.get(name.toString());
        return values == null ? List.of() : values;
    }

    @Override
    public String get(CharSequence name) {
        return headers.getFirst(name.toString());
    }

    @Override
    public Set<String> names() {
        return headers.keySet();
    }

    @Override
    public Collection<List<String>> values() {
        return new ArrayList<>(headers.values());
    }

    @Override
    public boolean contains(String name) {
        return headers.containsKey(name);
    }

    @Override
    public <T> Optional<T> get(CharSequence name, ArgumentConversionContext<T> conversionContext) {
        String value = get(name);
        if (value == null) {
            return Optional.empty();
        }
        return conversionService.convert(value, conversionContext);
    }
}
