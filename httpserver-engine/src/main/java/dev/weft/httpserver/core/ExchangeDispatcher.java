package dev.weft.httpserver.core;

/** Routes an exchange to its handler; may run it inline or hand it to an executor. */
@FunctionalInterface
public interface ExchangeDispatcher {

    /** Starts handling {@code exchange}; completion is signalled through {@link ExchangeTransport#complete()}. */
    void dispatch(ExchangeTransport exchange);
}
