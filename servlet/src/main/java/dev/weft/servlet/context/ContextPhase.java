package dev.weft.servlet.context;

/**
 * Where a context is in its life:
 * <pre>
 * CONFIGURING ──► INITIALIZING ──► INITIALIZED ──► STARTED ◄──► STOPPED
 *  (initializers)  (contextInitialized)              │             │
 *                                                    └──► DESTROYED ◄┘   (also from INITIALIZED)
 * </pre>
 * Servlets, filters and listeners may be added only while CONFIGURING or INITIALIZING; requests are served
 * only while STARTED.
 */
public enum ContextPhase {
    /** {@code ServletContainerInitializer}s run. */
    CONFIGURING,
    /** {@code ServletContextListener.contextInitialized} runs. */
    INITIALIZING,
    /** Configured; filters and load-on-startup servlets not yet initialized. */
    INITIALIZED,
    /** Serving requests. */
    STARTED,
    /** Not serving requests; can start again. */
    STOPPED,
    /** Torn down for good. */
    DESTROYED
}
