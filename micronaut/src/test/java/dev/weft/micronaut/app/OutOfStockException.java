package dev.weft.micronaut.app;

/** Thrown by {@code /errors/local}; answered by {@link ErrorsController}'s own {@code @Error} method. */
public class OutOfStockException extends RuntimeException {

    public OutOfStockException(String item) {
        super(item);
    }
}
