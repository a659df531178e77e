package dev.weft.servlet.request;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

/**
 * The asynchronous side of a request (Servlet 6.1 §2.3.3.3), implemented by the async layer so the request does
 * not depend on it.
 */
public interface AsyncHost {

    /**
     * Starts (or restarts) an asynchronous cycle with the given request and response.
     *
     * @param noArguments whether {@code startAsync()} (rather than {@code startAsync(request, response)}) was
     *                    called, which decides where {@code AsyncContext.dispatch()} goes
     * @throws IllegalStateException if the cycle cannot start now
     */
    AsyncContext startAsync(ServletRequest request, ServletResponse response, boolean noArguments);

    /** Whether an asynchronous cycle is started and not yet dispatched or completed. */
    boolean isAsyncStarted();

    /**
     * The current cycle's context.
     *
     * @throws IllegalStateException if the request was never put in asynchronous mode
     */
    AsyncContext asyncContext();
}
