package dev.weft.micronaut.binding;

import dev.weft.micronaut.http.WeftHttpRequest;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.convert.ConversionContext;
import io.micronaut.core.convert.ConversionError;
import io.micronaut.core.convert.ConversionService;
import io.micronaut.core.convert.value.ConvertibleValues;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.bind.binders.DefaultBodyAnnotationBinder;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Optional;

/**
 * Binds {@code @Body} arguments (whole bodies, and single properties of a JSON object or a form) from a request
 * received by Weft: the body is read whole, within {@code micronaut.server.max-request-buffer-size}, and decoded
 * once for all the arguments that need it; a body that cannot be parsed is a conversion error of the argument.
 */
@Singleton
@Replaces(DefaultBodyAnnotationBinder.class)
public class WeftBodyBinder<T> extends DefaultBodyAnnotationBinder<T> {

    public WeftBodyBinder(ConversionService conversionService) {
        super(conversionService);
    }

    @Override
    public BindingResult<T> bindFullBody(ArgumentConversionContext<T> context, HttpRequest<?> source) {
        if (!(source instanceof WeftHttpRequest request)) {
            return super.bindFullBody(context, source);
        }
        if (request.body().isEmpty() && request.getBody().isEmpty()) {
            return bindDefaultValue(context);
        }
        return result(request.getBody(context), context);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected BindingResult<ConvertibleValues<?>> bindFullBodyConvertibleValues(HttpRequest<?> source) {
        if (!(source instanceof WeftHttpRequest request)) {
            return super.bindFullBodyConvertibleValues(source);
        }
        ArgumentConversionContext<ConvertibleValues> context = ConversionContext.of(ConvertibleValues.class);
        Optional<ConvertibleValues> values = request.getBody(context);
        return (BindingResult) result(values, context);
    }

    private static <V> BindingResult<V> result(Optional<V> value, ArgumentConversionContext<?> context) {
        List<ConversionError> errors = context.getLastError().map(List::of).orElseGet(List::of);
        return new BindingResult<>() {
            @Override
            public Optional<V> getValue() {
                return value;
            }

            @Override
            public List<ConversionError> getConversionErrors() {
                return errors;
            }
        };
    }
}
