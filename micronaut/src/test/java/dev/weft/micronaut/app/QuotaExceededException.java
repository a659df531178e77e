package dev.weft.micronaut.app;

/** Thrown by {@code /errors/global}; answered by the global {@code @Error} method of {@link GlobalErrors}. */
public class QuotaExceededException extends RuntimeException {

    public QuotaExceededException(int limit) {
        super(String.valueOf(limit));
    }
}
