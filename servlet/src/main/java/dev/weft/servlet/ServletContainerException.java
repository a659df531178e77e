package dev.weft.servlet;

/**
 * Creating or starting the container failed: an initializer, a listener, a filter's or a load-on-startup
 * servlet's {@code init} threw (the cause), or the configuration could not be applied.
 */
public final class ServletContainerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ServletContainerException(String message, Throwable cause) {
        super(message, cause);
    }
}
