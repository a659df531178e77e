package dev.weft.micronaut.binding;

import dev.weft.micronaut.http.WeftHttpRequest;
import dev.weft.micronaut.multipart.MultipartForm;
import dev.weft.micronaut.multipart.MultipartSettings;
import io.micronaut.core.bind.annotation.Bindable;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.convert.ConversionService;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Part;
import io.micronaut.http.bind.binders.AnnotatedRequestArgumentBinder;
import io.micronaut.http.multipart.CompletedFileUpload;
import io.micronaut.http.multipart.FileUpload;
import io.micronaut.http.multipart.PartData;
import io.micronaut.http.multipart.StreamingFileUpload;

import java.util.List;
import java.util.Optional;

/**
 * Binds parts of a {@code multipart/form-data} request: {@code @Part} arguments, and arguments of an upload type
 * without annotation (by their name). A {@link CompletedFileUpload} (or {@link FileUpload}, {@link PartData}) is
 * the file read whole, a {@link StreamingFileUpload} the file read as the route consumes it, any other type the
 * field's text converted (several values: a list).
 */
final class PartBinder implements AnnotatedRequestArgumentBinder<Part, Object> {

    private final ConversionService conversionService;
    private final MultipartSettings settings;

    PartBinder(ConversionService conversionService, MultipartSettings settings) {
        this.conversionService = conversionService;
        this.settings = settings;
    }

    @Override
    public Class<Part> getAnnotationType() {
        return Part.class;
    }

    @Override
    public BindingResult<Object> bind(ArgumentConversionContext<Object> context, HttpRequest<?> source) {
        if (!(source instanceof WeftHttpRequest request) || !isMultipart(request)) {
            return BindingResult.unsatisfied();
        }
        Argument<Object> argument = context.getArgument();
        String name = argument.getAnnotationMetadata().stringValue(Part.class)
                .or(() -> argument.getAnnotationMetadata().stringValue(Bindable.class))
                .filter(n -> !n.isEmpty())
                .orElse(argument.getName());
        MultipartForm form = MultipartForm.of(request, settings);
        Class<?> type = argument.getType();
        if (type == StreamingFileUpload.class) {
            Optional<Object> upload = Optional.ofNullable(form.streaming(name));
            return () -> upload;
        }
        List<Object> values = form.values(name);
        if (values.isEmpty()) {
            return BindingResult.unsatisfied();
        }
        if (type == CompletedFileUpload.class || type == FileUpload.class || type == PartData.class) {
            Optional<Object> upload = values.stream().filter(CompletedFileUpload.class::isInstance).findFirst();
            return () -> upload;
        }
        Object value = values.size() == 1 ? values.get(0) : values;
        if (value instanceof CompletedFileUpload upload && !type.isInstance(upload)) {
            try {
                value = new String(upload.getBytes(), request.getCharacterEncoding());
            } catch (java.io.IOException ex) {
                throw new java.io.UncheckedIOException(ex); // never: its bytes are in memory
            }
        }
        Optional<Object> converted = conversionService.convert(value, context);
        return new BindingResult<>() {
            @Override
            public Optional<Object> getValue() {
                return converted;
            }

            @Override
            public List<io.micronaut.core.convert.ConversionError> getConversionErrors() {
                return context.getLastError().map(List::of).orElseGet(List::of);
            }
        };
    }

    private static boolean isMultipart(WeftHttpRequest request) {
        return request.getContentType().map(t -> t.matches(MediaType.MULTIPART_FORM_DATA_TYPE)).orElse(false);
    }
}
