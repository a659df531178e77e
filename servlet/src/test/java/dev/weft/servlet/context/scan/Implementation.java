package dev.weft.servlet.context.scan;

/** Implements {@link Marker}. */
public class Implementation implements Marker {
}
