package dev.weft.micronaut.websocket;

import io.micronaut.core.convert.ConversionService;
import io.micronaut.core.io.buffer.ByteArrayBufferFactory;
import io.micronaut.core.reflect.ClassUtils;
import io.micronaut.core.type.Argument;
import io.micronaut.http.MediaType;
import io.micronaut.http.body.MessageBodyHandlerRegistry;
import io.micronaut.http.body.MessageBodyReader;
import io.micronaut.http.body.MessageBodyWriter;
import io.micronaut.http.codec.CodecException;
import io.micronaut.http.simple.SimpleHttpHeaders;
import jakarta.inject.Singleton;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Turns application objects into WebSocket messages and messages into {@code @OnMessage} arguments, as
 * Micronaut's Netty runtime does: {@code byte[]} and buffers travel as binary messages, text and the
 * {@code java.lang} types (numbers, booleans) as text, and any other object is written by the body writer of
 * the media type (JSON by default) into a text message. Received messages become {@code String},
 * {@code byte[]}, a buffer, a {@code java.lang} type by conversion, or anything else through the body reader of
 * the {@code @Consumes} media type (JSON by default).
 */
@Singleton
final class MessageCodec {

    /** One outgoing message: text or binary. */
    record Outgoing(String text, ByteBuffer binary) {
    }

    private final MessageBodyHandlerRegistry bodies;
    private final ConversionService conversion;

    MessageCodec(MessageBodyHandlerRegistry bodies, ConversionService conversion) {
        this.bodies = bodies;
        this.conversion = conversion;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    Outgoing encode(Object message, MediaType mediaType) {
        if (message instanceof byte[] bytes) {
            return new Outgoing(null, ByteBuffer.wrap(bytes));
        }
        if (message instanceof ByteBuffer buffer) {
            return new Outgoing(null, buffer.duplicate());
        }
        if (message instanceof io.micronaut.core.io.buffer.ByteBuffer<?> buffer) {
            return new Outgoing(null, buffer.asNioBuffer());
        }
        if (message instanceof CharSequence || ClassUtils.isJavaLangType(message.getClass())) {
            return new Outgoing(message.toString(), null);
        }
        Argument argument = Argument.of(message.getClass());
        MessageBodyWriter writer = (MessageBodyWriter) bodies.findWriter(argument, mediaType).orElse(null);
        if (writer == null) {
            throw new CodecException("No writer of " + mediaType + " for a WebSocket message of type "
                    + message.getClass().getName());
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.writeTo(argument, mediaType, message, new SimpleHttpHeaders(), out);
        return new Outgoing(out.toString(StandardCharsets.UTF_8), null);
    }

    /**
     * The argument {@code message} ({@code String} for a text message, {@code byte[]} for a binary one) binds
     * to, or {@code null} when it cannot become one.
     */
    Object decode(Object message, Argument<?> argument, MediaType mediaType) {
        Class<?> type = argument.getType();
        byte[] bytes = message instanceof byte[] b ? b : ((String) message).getBytes(StandardCharsets.UTF_8);
        if (type == String.class || type == CharSequence.class || type == Object.class) {
            return message instanceof String s ? s : new String(bytes, StandardCharsets.UTF_8);
        }
        if (type == byte[].class) {
            return bytes;
        }
        if (type == ByteBuffer.class) {
            return ByteBuffer.wrap(bytes);
        }
        if (type == io.micronaut.core.io.buffer.ByteBuffer.class) {
            return ByteArrayBufferFactory.INSTANCE.wrap(bytes);
        }
        if (ClassUtils.isJavaLangType(type)) {
            return conversion.convert(new String(bytes, StandardCharsets.UTF_8), argument).orElse(null);
        }
        MessageBodyReader<?> reader = bodies.findReader(argument, mediaType).orElse(null);
        if (reader == null) {
            return null;
        }
        return read(reader, argument, mediaType, bytes);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object read(MessageBodyReader reader, Argument argument, MediaType mediaType, byte[] bytes) {
        return reader.read(argument, mediaType, new SimpleHttpHeaders(), new ByteArrayInputStream(bytes));
    }
}
