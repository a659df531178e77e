package dev.weft.micronaut.demo;

import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.http.sse.Event;
import io.micronaut.serde.annotation.Serdeable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

import java.time.Duration;
import java.time.Instant;

/** Server-sent events: {@code count} ticks (default 5), one every {@code intervalMs} milliseconds, then the end. */
@Controller("/api/ticks")
public class TickController {

    @Get(produces = MediaType.TEXT_EVENT_STREAM)
    public Publisher<Event<Tick>> ticks(@QueryValue(defaultValue = "5") @Min(1) @Max(100) int count,
                                        @QueryValue(defaultValue = "500") @Min(1) @Max(10_000) long intervalMs) {
        return Flux.interval(Duration.ZERO, Duration.ofMillis(intervalMs))
                .take(count)
                .map(n -> Event.of(new Tick(n + 1, count, Instant.now().toString()))
                        .name("tick")
                        .id(Long.toString(n + 1)));
    }

    /** One event's data: its number (from 1), how many there will be, and when it was sent. */
    @Serdeable
    public record Tick(long n, int of, String at) {
    }
}
