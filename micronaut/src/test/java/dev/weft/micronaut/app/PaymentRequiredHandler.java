package dev.weft.micronaut.app;

import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.server.exceptions.ExceptionHandler;
import jakarta.inject.Singleton;

/** An {@code ExceptionHandler} bean answering {@link PaymentRequiredException} with a 402 and a JSON body. */
@Produces
@Singleton
@Requires(classes = PaymentRequiredException.class)
public class PaymentRequiredHandler
        implements ExceptionHandler<PaymentRequiredException, HttpResponse<Problem>> {

    @Override
    public HttpResponse<Problem> handle(HttpRequest request, PaymentRequiredException ex) {
        return HttpResponse.<Problem>status(HttpStatus.PAYMENT_REQUIRED)
                .header("X-Error-Handler", "bean")
                .body(new Problem("payment required", "plan " + ex.getMessage()));
    }
}
