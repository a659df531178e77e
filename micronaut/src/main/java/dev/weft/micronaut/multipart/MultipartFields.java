package dev.weft.micronaut.multipart;

import dev.weft.micronaut.http.BodyDecoder;
import dev.weft.micronaut.http.WeftHttpRequest;
import jakarta.inject.Singleton;

import java.util.Map;

/** A multipart body as a whole-body argument sees it: its fields as text, its files as completed uploads. */
@Singleton
final class MultipartFields implements BodyDecoder.FormDecoder {

    private final MultipartSettings settings;

    MultipartFields(MultipartSettings settings) {
        this.settings = settings;
    }

    @Override
    public Map<String, Object> fields(WeftHttpRequest request) {
        return BodyDecoder.fields(MultipartForm.of(request, settings).all());
    }
}
