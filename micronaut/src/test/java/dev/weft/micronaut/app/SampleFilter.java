package dev.weft.micronaut.app;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.RequestFilter;
import io.micronaut.http.annotation.ResponseFilter;
import io.micronaut.http.annotation.ServerFilter;

/**
 * A server filter on the sample routes: a request carrying {@code X-Deny} is answered {@code 403} before
 * routing; every other response gets {@code X-Filtered}, naming the route's path.
 */
@ServerFilter("/sample/**")
public class SampleFilter {

    @RequestFilter
    @Nullable
    public HttpResponse<?> deny(HttpRequest<?> request) {
        if (request.getHeaders().contains("X-Deny")) {
            return HttpResponse.status(HttpStatus.FORBIDDEN).body("denied by filter");
        }
        return null;
    }

    @ResponseFilter
    public void mark(HttpRequest<?> request, MutableHttpResponse<?> response) {
        response.header("X-Filtered", request.getPath());
    }
}
