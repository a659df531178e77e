package dev.weft.demo;

import com.sun.net.httpserver.HttpExchange;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;

/** The demo's HTTP API under {@code /api}. */
@RestController
@RequestMapping("/api")
public class ApiController {

    private static final int MAX_NAME_LENGTH = 100;

    private final ServerStatistics statistics;

    ApiController(ServerStatistics statistics) {
        this.statistics = statistics;
    }

    /** {@code GET /api/greeting?name=Ada}: a JSON greeting. */
    @GetMapping("/greeting")
    public Greeting greeting(@RequestParam(name = "name", defaultValue = "World") String name) {
        String who = name.strip();
        if (who.isEmpty()) {
            who = "World";
        }
        if (who.length() > MAX_NAME_LENGTH) {
            who = who.substring(0, MAX_NAME_LENGTH);
        }
        return new Greeting("Hello, " + who + "!", "Weft", Instant.now().toString());
    }

    /** {@code POST /api/echo}: returns the JSON document it was sent, wrapped with a little metadata. */
    @PostMapping(path = "/echo", consumes = MediaType.APPLICATION_JSON_VALUE)
    public Mono<Echo> echo(@RequestBody Mono<Object> body,
                           @RequestHeader(name = "User-Agent", required = false) String userAgent) {
        return body.map(json -> new Echo(json, userAgent, Instant.now().toString()));
    }

    /**
     * {@code GET /api/protocol}: the protocol of this very request as the server saw it, {@code HTTP/1.1} or
     * {@code HTTP/2.0} ({@code unknown} when the application does not run on Weft).
     */
    @GetMapping("/protocol")
    public Protocol protocol(ServerHttpRequest request) {
        Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(request);
        String protocol = nativeRequest instanceof HttpExchange exchange ? exchange.getProtocol() : "unknown";
        return new Protocol(protocol, request.getSslInfo() != null);
    }

    /** {@code GET /api/stats}: the server's statistics right now. */
    @GetMapping("/stats")
    public ServerStatistics.LiveStats stats() {
        return statistics.current();
    }

    /** {@code GET /api/ticks}: one {@code stats} event per second with the server's live statistics. */
    @GetMapping(path = "/ticks", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public Flux<ServerSentEvent<ServerStatistics.LiveStats>> ticks() {
        return Flux.interval(Duration.ZERO, Duration.ofSeconds(1))
                .map(n -> ServerSentEvent.builder(statistics.current())
                        .id(Long.toString(n))
                        .event("stats")
                        .build());
    }

    /**
     * {@code POST /api/upload}: counts the bytes of the request body and hashes them as they arrive, without
     * holding the body in memory; any content type (e.g. {@code curl --data-binary @file}).
     */
    @PostMapping("/upload")
    public Mono<UploadResult> upload(ServerHttpRequest request) {
        return Mono.defer(() -> {
            Digest digest = new Digest();
            return request.getBody()
                    .doOnNext(digest::consume)
                    .doOnDiscard(DataBuffer.class, DataBufferUtils::release)
                    .then(Mono.fromSupplier(digest::result));
        });
    }

    /** Running size and SHA-256 of one upload; fed one buffer at a time. */
    private static final class Digest {
        private final MessageDigest sha256;
        private final long startNanos = System.nanoTime();
        private long bytes;

        Digest() {
            try {
                sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("SHA-256 is required of every JDK", e);
            }
        }

        void consume(DataBuffer buffer) {
            try (DataBuffer.ByteBufferIterator it = buffer.readableByteBuffers()) {
                while (it.hasNext()) {
                    ByteBuffer bb = it.next();
                    bytes += bb.remaining();
                    sha256.update(bb);
                }
            } finally {
                DataBufferUtils.release(buffer);
            }
        }

        UploadResult result() {
            return new UploadResult(bytes, HexFormat.of().formatHex(sha256.digest()),
                    Duration.ofNanos(System.nanoTime() - startNanos).toMillis());
        }
    }

    /** Reply of {@code /api/greeting}. */
    public record Greeting(String message, String server, String time) {
    }

    /** Reply of {@code /api/echo}. */
    public record Echo(Object received, String userAgent, String time) {
    }

    /** Reply of {@code /api/protocol}: the request's protocol, and whether it came over TLS. */
    public record Protocol(String protocol, boolean secure) {
    }

    /** Reply of {@code /api/upload}. */
    public record UploadResult(long bytes, String sha256, long millis) {
    }
}
