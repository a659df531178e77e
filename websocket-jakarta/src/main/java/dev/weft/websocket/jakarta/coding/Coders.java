package dev.weft.websocket.jakarta.coding;

import jakarta.websocket.DecodeException;
import jakarta.websocket.Decoder;
import jakarta.websocket.EncodeException;
import jakarta.websocket.Encoder;
import jakarta.websocket.EndpointConfig;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The encoders and decoders of one session: instances of the endpoint configuration's classes, initialized with
 * it on creation and destroyed with the session (Jakarta WebSocket 2.1+ lifecycle), plus the built-in forms
 * (String, primitives, ByteBuffer, byte[]).
 */
public final class Coders {

    private static final System.Logger LOG = System.getLogger(Coders.class.getName());

    private final List<Decoder> decoders = new ArrayList<>();
    private final List<Encoder> encoders = new ArrayList<>();

    /** Creates and initializes the configuration's coders; a coder that cannot be created fails. */
    public Coders(EndpointConfig config) {
        try {
            for (Class<? extends Decoder> c : config.getDecoders()) {
                Decoder d = c.getConstructor().newInstance();
                d.init(config);
                decoders.add(d);
            }
            for (Class<? extends Encoder> c : config.getEncoders()) {
                Encoder e = c.getConstructor().newInstance();
                e.init(config);
                encoders.add(e);
            }
        } catch (ReflectiveOperationException e) {
            destroy();
            throw new IllegalStateException("cannot create a coder: " + e, e);
        }
    }

    /** Whether a text message can become a {@code type}. */
    public boolean decodesText(Class<?> type) {
        return PrimitiveText.isSupported(type) || type == java.io.Reader.class
                || decoders.stream().anyMatch(d -> CoderTypes.isText(d.getClass())
                && type.isAssignableFrom(CoderTypes.handledType(d.getClass())));
    }

    /** Whether a binary message can become a {@code type}. */
    public boolean decodesBinary(Class<?> type) {
        return type == ByteBuffer.class || type == byte[].class || type == java.io.InputStream.class
                || decoders.stream().anyMatch(d -> CoderTypes.isBinary(d.getClass())
                && type.isAssignableFrom(CoderTypes.handledType(d.getClass())));
    }

    /** {@code message} as a {@code type}: built-in forms first, then the first decoder that will decode it. */
    public Object decodeText(String message, Class<?> type) throws DecodeException {
        if (type == java.io.Reader.class) {
            return new StringReader(message);
        }
        if (PrimitiveText.isSupported(type)) {
            try {
                return PrimitiveText.parse(message, type);
            } catch (IllegalArgumentException e) {
                throw new DecodeException(message, "not a " + type.getSimpleName(), e);
            }
        }
        for (Decoder d : decoders) {
            if (!type.isAssignableFrom(CoderTypes.handledType(d.getClass()))) {
                continue;
            }
            try {
                if (d instanceof Decoder.Text<?> t && t.willDecode(message)) {
                    return t.decode(message);
                }
                if (d instanceof Decoder.TextStream<?> s) {
                    return s.decode(new StringReader(message));
                }
            } catch (IOException e) {
                throw new DecodeException(message, "decoder failed", e);
            }
        }
        throw new DecodeException(message, "no decoder for " + type.getName() + " accepted the message");
    }

    /** {@code message} as a {@code type}: built-in forms first, then the first decoder that will decode it. */
    public Object decodeBinary(ByteBuffer message, Class<?> type) throws DecodeException {
        if (type == ByteBuffer.class) {
            return message;
        }
        if (type == byte[].class || type == java.io.InputStream.class) {
            byte[] bytes = new byte[message.remaining()];
            message.get(bytes);
            return type == byte[].class ? bytes : new ByteArrayInputStream(bytes);
        }
        for (Decoder d : decoders) {
            if (!type.isAssignableFrom(CoderTypes.handledType(d.getClass()))) {
                continue;
            }
            try {
                if (d instanceof Decoder.Binary<?> b && b.willDecode(message.duplicate())) {
                    return b.decode(message);
                }
                if (d instanceof Decoder.BinaryStream<?> s) {
                    byte[] bytes = new byte[message.remaining()];
                    message.get(bytes);
                    return s.decode(new ByteArrayInputStream(bytes));
                }
            } catch (IOException e) {
                throw new DecodeException(message, "decoder failed", e);
            }
        }
        throw new DecodeException(message, "no decoder for " + type.getName() + " accepted the message");
    }

    /** {@code value} as a message: built-in forms, else the first encoder for its class. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Encoded encode(Object value) throws EncodeException {
        if (value == null) {
            throw new IllegalArgumentException("nothing to send");
        }
        if (value instanceof ByteBuffer b) {
            return new Encoded(null, b);
        }
        if (value instanceof byte[] b) {
            return new Encoded(null, ByteBuffer.wrap(b));
        }
        if (PrimitiveText.isSupported(value.getClass())) {
            return new Encoded(String.valueOf(value), null);
        }
        for (Encoder e : encoders) {
            if (!CoderTypes.handledType(e.getClass()).isInstance(value)) {
                continue;
            }
            try {
                if (e instanceof Encoder.Text t) {
                    return new Encoded(t.encode(value), null);
                }
                if (e instanceof Encoder.Binary b) {
                    return new Encoded(null, b.encode(value));
                }
                if (e instanceof Encoder.TextStream s) {
                    StringWriter out = new StringWriter();
                    s.encode(value, out);
                    return new Encoded(out.toString(), null);
                }
                if (e instanceof Encoder.BinaryStream s) {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    s.encode(value, out);
                    return new Encoded(null, ByteBuffer.wrap(out.toByteArray()));
                }
            } catch (IOException ex) {
                throw new EncodeException(value, "encoder failed", ex);
            }
        }
        throw new EncodeException(value, "no encoder for " + value.getClass().getName());
    }

    /** Destroys every coder; failures are logged. */
    public void destroy() {
        for (Decoder d : decoders) {
            try {
                d.destroy();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "decoder destroy failed", e);
            }
        }
        for (Encoder e : encoders) {
            try {
                e.destroy();
            } catch (RuntimeException ex) {
                LOG.log(Level.WARNING, "encoder destroy failed", ex);
            }
        }
        decoders.clear();
        encoders.clear();
    }
}
