package dev.weft.websocket.jakarta.coding;

import jakarta.websocket.Decoder;
import jakarta.websocket.Encoder;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.List;

/** The type an encoder or decoder class handles, read from its generic interface, and its message kind. */
public final class CoderTypes {

    private CoderTypes() {
    }

    /** Whether the decoder class decodes text messages (Text or TextStream). */
    public static boolean isText(Class<?> coder) {
        return Decoder.Text.class.isAssignableFrom(coder) || Decoder.TextStream.class.isAssignableFrom(coder)
                || Encoder.Text.class.isAssignableFrom(coder) || Encoder.TextStream.class.isAssignableFrom(coder);
    }

    /** Whether the decoder class decodes binary messages (Binary or BinaryStream). */
    public static boolean isBinary(Class<?> coder) {
        return Decoder.Binary.class.isAssignableFrom(coder) || Decoder.BinaryStream.class.isAssignableFrom(coder)
                || Encoder.Binary.class.isAssignableFrom(coder) || Encoder.BinaryStream.class.isAssignableFrom(coder);
    }

    /** Whether one of {@code decoders} of the given kind produces values assignable to {@code type}. */
    public static boolean decodes(List<Class<? extends Decoder>> decoders, Class<?> type, boolean text) {
        for (Class<? extends Decoder> d : decoders) {
            if ((text ? isText(d) : isBinary(d)) && type.isAssignableFrom(handledType(d))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The type argument {@code coder} gives to the Encoder or Decoder sub-interface it implements; {@code Object}
     * when it cannot be read (a type variable).
     */
    public static Class<?> handledType(Class<?> coder) {
        for (Class<?> c = coder; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Type t : c.getGenericInterfaces()) {
                Class<?> found = fromInterface(t);
                if (found != null) {
                    return found;
                }
            }
        }
        return Object.class;
    }

    private static Class<?> fromInterface(Type t) {
        if (t instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw
                && (raw.getEnclosingClass() == Decoder.class || raw.getEnclosingClass() == Encoder.class)) {
            Type arg = p.getActualTypeArguments()[0];
            if (arg instanceof Class<?> c) {
                return c;
            }
            if (arg instanceof ParameterizedType pa && pa.getRawType() instanceof Class<?> c) {
                return c;
            }
            return Object.class;
        }
        if (t instanceof Class<?> c) {
            for (Type sup : c.getGenericInterfaces()) {
                Class<?> found = fromInterface(sup);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }
}
