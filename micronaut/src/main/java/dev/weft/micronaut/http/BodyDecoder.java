package dev.weft.micronaut.http;

import io.micronaut.core.convert.ArgumentConversionContext;
import io.micronaut.core.convert.ConversionService;
import io.micronaut.core.io.buffer.ByteArrayBufferFactory;
import io.micronaut.core.type.Argument;
import io.micronaut.http.MediaType;
import io.micronaut.http.body.MessageBodyHandlerRegistry;
import io.micronaut.http.body.MessageBodyReader;
import io.micronaut.http.codec.CodecException;
import io.micronaut.http.uri.QueryStringDecoder;
import io.micronaut.web.router.RouteAttributes;
import io.micronaut.web.router.RouteInfo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns a request's whole body into the object a route asks for: with the route's or the registry's
 * {@link MessageBodyReader} for the body's media type (JSON, text, ...), a URL-encoded form into a map of its
 * fields (one value as a string, several as a list), a multipart form into its fields, and a body without a
 * reader into a string or bytes by conversion. A body a reader cannot parse rejects the argument with the
 * reader's failure, which Micronaut answers with {@code 400} and its error body, as on Netty.
 */
public final class BodyDecoder {

    private final MessageBodyHandlerRegistry registry;
    private final ConversionService conversionService;
    private final FormDecoder multipart;
    private final int maxFields;

    /** Decodes a multipart body into its fields ({@code null} when multipart is not supported). */
    @FunctionalInterface
    public interface FormDecoder {
        Map<String, Object> fields(WeftHttpRequest request);
    }

    public BodyDecoder(MessageBodyHandlerRegistry registry, ConversionService conversionService,
                       FormDecoder multipart, int maxFields) {
        this.registry = registry;
        this.maxFields = maxFields;
        this.conversionService = conversionService;
        this.multipart = multipart;
    }

    <T> Optional<T> decode(WeftHttpRequest request, ArgumentConversionContext<T> context) {
        Argument<T> argument = context.getArgument();
        MediaType mediaType = request.getContentType().orElse(null);
        if (mediaType != null && isForm(mediaType)) {
            Map<String, Object> fields = mediaType.matches(MediaType.MULTIPART_FORM_DATA_TYPE)
                    ? multipart.fields(request) : urlEncoded(request);
            request.decoded(fields);
            return conversionService.convert(fields, context);
        }
        MessageBodyReader<T> reader = reader(request, argument, mediaType);
        byte[] bytes = request.body().bytes();
        if (reader != null) {
            try {
                T value = reader.read(argument, mediaType, request.getHeaders(),
                        ByteArrayBufferFactory.INSTANCE.wrap(bytes));
                if (value != null) {
                    request.decoded(value);
                }
                return Optional.ofNullable(value);
            } catch (CodecException ex) {
                context.reject(ex.getCause() instanceof Exception cause ? cause : ex);
                return Optional.empty();
            }
        }
        if (argument.getType() == byte[].class) {
            return Optional.of(argument.getType().cast(bytes));
        }
        String text = new String(bytes, request.getCharacterEncoding());
        request.decoded(text);
        return conversionService.convert(text, context);
    }

    private static boolean isForm(MediaType mediaType) {
        return mediaType.matches(MediaType.APPLICATION_FORM_URLENCODED_TYPE)
                || mediaType.matches(MediaType.MULTIPART_FORM_DATA_TYPE);
    }

    @SuppressWarnings("unchecked")
    private <T> MessageBodyReader<T> reader(WeftHttpRequest request, Argument<T> argument, MediaType mediaType) {
        MessageBodyReader<T> reader = null;
        RouteInfo<?> route = RouteAttributes.getRouteInfo(request).orElse(null);
        if (route != null) {
            reader = (MessageBodyReader<T>) route.getMessageBodyReader();
        }
        if (mediaType != null && (reader == null || !reader.isReadable(argument, mediaType))) {
            reader = registry.findReader(argument, List.of(mediaType)).orElse(null);
        }
        return reader;
    }

    private Map<String, Object> urlEncoded(WeftHttpRequest request) {
        String text = new String(request.body().bytes(), request.getCharacterEncoding());
        Map<String, List<String>> decoded = new QueryStringDecoder(text, request.getCharacterEncoding(), false,
                maxFields).parameters();
        return fields(decoded);
    }

    /** A form's fields as Netty's runtime gives them to binders: one value as itself, several as a list. */
    public static Map<String, Object> fields(Map<String, ? extends List<?>> values) {
        Map<String, Object> fields = new LinkedHashMap<>();
        values.forEach((name, list) -> fields.put(name, list.size() == 1 ? list.get(0) : new ArrayList<>(list)));
        return fields;
    }
}
