package dev.weft.micronaut.app;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Error;

/** A global {@code @Error} handler: any route throwing {@link QuotaExceededException} gets a 429 in plain text. */
@Controller
public class GlobalErrors {

    @Error(global = true, exception = QuotaExceededException.class)
    public HttpResponse<String> quotaExceeded(QuotaExceededException ex) {
        return HttpResponse.<String>status(HttpStatus.TOO_MANY_REQUESTS)
                .header("X-Error-Handler", "global")
                .header("Retry-After", "60")
                .contentType(MediaType.TEXT_PLAIN_TYPE)
                .body("quota of " + ex.getMessage() + " exceeded");
    }
}
