package dev.weft.servlet.context.scan;

/** A type a test initializer's {@code @HandlesTypes} asks for. */
public interface Marker {
}
