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
import io.micronaut.http.annotation.Part;
import io.micronaut.http.multipart.CompletedFileUpload;
import io.micronaut.http.multipart.StreamingFileUpload;
import io.micronaut.http.sse.Event;
import jakarta.validation.Valid;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import reactor.core.publisher.Mono;

import java.util.Map;

/** The routes the tests (and the Netty comparison) send requests to. */
@Controller("/sample")
public class SampleController {

    private final Gate gate;

    public SampleController(Gate gate) {
        this.gate = gate;
    }

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

    @Get(value = "/events", produces = MediaType.TEXT_EVENT_STREAM)
    public Publisher<Event<Greeting>> events() {
        return Flux.range(1, 3).map(i -> Event.of(new Greeting("tick", i)).id(String.valueOf(i)).name("tick"));
    }

    /** The first event, then the rest only once the test has released the gate (so it saw the first alone). */
    @Get(value = "/gated-events", produces = MediaType.TEXT_EVENT_STREAM)
    public Publisher<Event<String>> gatedEvents() {
        Flux<Event<String>> rest = Flux.defer(() -> {
            gate.pass();
            return Flux.just(Event.of("second"), Event.of("third"));
        }).subscribeOn(Schedulers.boundedElastic());
        return Flux.concat(Flux.just(Event.of("first")), rest);
    }

    @Post(value = "/upload", consumes = MediaType.MULTIPART_FORM_DATA, produces = MediaType.TEXT_PLAIN)
    public String upload(@Part("file") CompletedFileUpload file, @Part("note") String note) throws java.io.IOException {
        return file.getFilename() + " " + file.getContentType().map(MediaType::toString).orElse("?") + " "
                + file.getBytes().length + " bytes, note " + note;
    }

    /** Answers once the test releases the gate. */
    @ExecuteOn(TaskExecutors.BLOCKING)
    @Get(value = "/slow", produces = MediaType.TEXT_PLAIN)
    public String slow() {
        gate.pass();
        return "finished";
    }

    @Post(value = "/streaming-upload", consumes = MediaType.MULTIPART_FORM_DATA, produces = MediaType.TEXT_PLAIN)
    public Mono<String> streamingUpload(StreamingFileUpload file) {
        return Flux.from(file).map(piece -> {
            try {
                return piece.getBytes().length;
            } catch (java.io.IOException ex) {
                throw new java.io.UncheckedIOException(ex);
            }
        }).reduce(0, Integer::sum).map(total -> file.getFilename() + " streamed " + total + " bytes");
    }
}
