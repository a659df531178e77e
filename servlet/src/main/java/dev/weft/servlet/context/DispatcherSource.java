package dev.weft.servlet.context;

import jakarta.servlet.RequestDispatcher;

/**
 * Makes the context's request dispatchers; provided by the dispatch layer when the container is assembled,
 * so the context does not depend on it.
 */
public interface DispatcherSource {

    /** A dispatcher for a context-relative path (with an optional query), or null if the path is invalid. */
    RequestDispatcher forPath(String pathWithQuery);

    /** A dispatcher for the servlet named {@code name}, or null if there is none. */
    RequestDispatcher forName(String name);
}
