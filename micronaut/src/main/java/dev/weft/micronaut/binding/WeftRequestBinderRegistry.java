package dev.weft.micronaut.binding;

import dev.weft.micronaut.multipart.MultipartSettings;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.convert.ConversionService;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.DefaultRequestBinderRegistry;
import io.micronaut.http.bind.binders.DefaultBodyAnnotationBinder;
import io.micronaut.http.bind.binders.RequestArgumentBinder;
import io.micronaut.http.bind.binders.TypedRequestArgumentBinder;
import io.micronaut.http.multipart.CompletedFileUpload;
import io.micronaut.http.multipart.StreamingFileUpload;
import jakarta.inject.Singleton;

import java.util.List;

/**
 * Micronaut's argument binders, with multipart parts bound from Weft's requests: {@code @Part} arguments (in
 * place of the default {@code @Part} binder), and {@link CompletedFileUpload} and {@link StreamingFileUpload}
 * arguments by their name.
 */
@Singleton
@Replaces(DefaultRequestBinderRegistry.class)
final class WeftRequestBinderRegistry extends DefaultRequestBinderRegistry {

    WeftRequestBinderRegistry(ConversionService conversionService, List<RequestArgumentBinder> binders,
                              DefaultBodyAnnotationBinder bodyBinder, MultipartSettings multipart) {
        super(conversionService, binders, bodyBinder);
        PartBinder parts = new PartBinder(conversionService, multipart);
        addArgumentBinder(parts);
        addArgumentBinder(byName(CompletedFileUpload.class, parts));
        addArgumentBinder(byName(StreamingFileUpload.class, parts));
    }

    private static <T> TypedRequestArgumentBinder<T> byName(Class<T> type, PartBinder parts) {
        Argument<T> argument = Argument.of(type);
        return new TypedRequestArgumentBinder<>() {
            @Override
            public Argument<T> argumentType() {
                return argument;
            }

            @Override
            @SuppressWarnings({"unchecked", "rawtypes"})
            public BindingResult<T> bind(ArgumentConversionContext<T> context, HttpRequest<?> source) {
                return (BindingResult<T>) (BindingResult) parts.bind((ArgumentConversionContext) context, source);
            }
        };
    }
}
