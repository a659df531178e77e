package dev.weft.micronaut.app;

/** Thrown by {@code /errors/handled}; answered by the {@link PaymentRequiredHandler} bean. */
public class PaymentRequiredException extends RuntimeException {

    public PaymentRequiredException(String plan) {
        super(plan);
    }
}
