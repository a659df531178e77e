package dev.weft.websocket.jakarta.coding;

import java.util.Map;

/**
 * Text forms of {@code String}, the Java primitives and their boxes, which every endpoint can receive and send
 * without a decoder or encoder (Jakarta WebSocket §4.7).
 */
public final class PrimitiveText {

    private static final Map<Class<?>, Class<?>> BOXES = Map.of(
            boolean.class, Boolean.class, byte.class, Byte.class, short.class, Short.class, char.class,
            Character.class, int.class, Integer.class, long.class, Long.class, float.class, Float.class,
            double.class, Double.class);

    private PrimitiveText() {
    }

    /** The box of a primitive type, or the type itself. */
    public static Class<?> boxed(Class<?> type) {
        return BOXES.getOrDefault(type, type);
    }

    /** Whether {@code type} is {@code String}, a primitive or a box of one. */
    public static boolean isSupported(Class<?> type) {
        return type == String.class || BOXES.containsKey(type) || BOXES.containsValue(type);
    }

    /**
     * {@code text} as a value of {@code type} (one {@link #isSupported} accepts).
     *
     * @throws IllegalArgumentException if the text is not a value of that type
     */
    public static Object parse(String text, Class<?> type) {
        Class<?> box = boxed(type);
        if (box == String.class) {
            return text;
        }
        if (text == null) {
            if (type.isPrimitive()) {
                throw new IllegalArgumentException("no value for " + type);
            }
            return null;
        }
        if (box == Boolean.class) {
            return Boolean.valueOf(text);
        }
        if (box == Character.class) {
            if (text.length() != 1) {
                throw new IllegalArgumentException("not one character");
            }
            return text.charAt(0);
        }
        if (box == Byte.class) {
            return Byte.valueOf(text);
        }
        if (box == Short.class) {
            return Short.valueOf(text);
        }
        if (box == Integer.class) {
            return Integer.valueOf(text);
        }
        if (box == Long.class) {
            return Long.valueOf(text);
        }
        if (box == Float.class) {
            return Float.valueOf(text);
        }
        if (box == Double.class) {
            return Double.valueOf(text);
        }
        throw new IllegalArgumentException("not a primitive type: " + type);
    }
}
