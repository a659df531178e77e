package dev.weft.micronaut.app;

import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Error;
import io.micronaut.http.annotation.Get;

/**
 * Routes that fail, each answered by another kind of error handler: a controller-local {@code @Error} method
 * (this class), a global one ({@link GlobalErrors}) and an {@code ExceptionHandler} bean
 * ({@link PaymentRequiredHandler}).
 */
@Controller("/errors")
public class ErrorsController {

    @Get("/local")
    public String local() {
        throw new OutOfStockException("teapot");
    }

    @Get("/global")
    public String global() {
        throw new QuotaExceededException(3);
    }

    @Get("/handled")
    public String handled() {
        throw new PaymentRequiredException("gold");
    }

    @Error(OutOfStockException.class)
    public HttpResponse<Problem> outOfStock(HttpRequest<?> request, OutOfStockException ex) {
        return HttpResponse.<Problem>status(HttpStatus.CONFLICT)
                .header("X-Error-Handler", "local")
                .body(new Problem("out of stock", ex.getMessage() + " at " + request.getPath()));
    }
}
