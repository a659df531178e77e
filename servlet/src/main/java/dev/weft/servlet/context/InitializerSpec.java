package dev.weft.servlet.context;

import jakarta.servlet.ServletContainerInitializer;

import java.util.Set;

/**
 * An initializer to run when the context is created, with the classes it is called with (null when it has no
 * {@code @HandlesTypes} or nothing matched, as the specification says).
 */
public record InitializerSpec(ServletContainerInitializer initializer, Set<Class<?>> classes) {
}
