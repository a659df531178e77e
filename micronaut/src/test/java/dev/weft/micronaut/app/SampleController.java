package dev.weft.micronaut.app;

import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Body;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.CookieValue;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Post;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.exceptions.HttpStatusException;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import jakarta.validation.Valid;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.Map;

/** The routes the tests (and the Netty comparison) send requests to. */
@Controller("/sample")
public class SampleController {

    @Get(value = "/hello", produces = MediaType.TEXT_PLAIN)
    public String hello() {
        return "Hello from Weft";
    }

    @Get("/json")
    public Map<String, Object> json() {
        return Map.of("message", "Hello, World!");
    }

    @Post("/echo")
    public Greeting echo(@Body @Valid Greeting greeting) {
        return new Greeting(greeting.name().toUpperCase(), greeting.count() + 1);
    }

    @Post(value = "/text", consumes = MediaType.TEXT_PLAIN, produces = MediaType.TEXT_PLAIN)
    public String text(@Body String body) {
        return "got " + body.length() + " bytes";
    }

    @Post(value = "/form", consumes = MediaType.APPLICATION_FORM_URLENCODED)
    public Map<String, Object> form(String name, int count) {
        return Map.of("name", name, "count", count);
    }

    @Get("/bind/{id}")
    public Map<String, Object> bind(@PathVariable int id, @QueryValue String q, @Header("X-Token") String token,
                                    @CookieValue("session") String session) {
        return Map.of("id", id, "q", q, "token", token, "session", session);
    }

    @Get("/cookie")
    public HttpResponse<String> cookie() {
        return HttpResponse.ok("set").cookie(Cookie.of("flavour", "oatmeal").path("/").httpOnly(true));
    }

    @Get("/boom")
    public String boom() {
        throw new IllegalStateException("secret internal detail");
    }

    @Get("/teapot")
    public String teapot() {
        throw new HttpStatusException(HttpStatus.I_AM_A_TEAPOT, "short and stout");
    }

    @Get("/mono")
    public Mono<Greeting> mono() {
        return Mono.just(new Greeting("mono", 1));
    }

    @Get("/flux")
    public Flux<Greeting> flux() {
        return Flux.range(1, 3).map(i -> new Greeting("item", i));
    }

    @ExecuteOn(TaskExecutors.BLOCKING)
    @Get(value = "/thread", produces = MediaType.TEXT_PLAIN)
    public String blockingThread() {
        return Thread.currentThread().isVirtual() ? "virtual" : "platform";
    }

    @Get(value = "/inline-thread", produces = MediaType.TEXT_PLAIN)
    public String inlineThread() {
        return Thread.currentThread().isVirtual() ? "virtual" : "platform";
    }
}
