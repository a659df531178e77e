package dev.weft.servlet.async;

import dev.weft.servlet.request.DispatchPath;

/**
 * Where an {@code AsyncContext.dispatch} goes: back to the path elements of an earlier container dispatch, or to
 * a context-relative path (decoded, optionally with a query string). Exactly one is set.
 */
public record AsyncTarget(DispatchPath earlier, String path) {
}
