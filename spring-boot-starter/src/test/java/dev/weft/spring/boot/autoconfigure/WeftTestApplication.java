package dev.weft.spring.boot.autoconfigure;

import com.sun.net.httpserver.HttpExchange;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.SslInfo;
import org.springframework.web.reactive.function.BodyInserters;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

/**
 * A small WebFlux application for the starter's tests (no component scanning): a JSON endpoint, a slow
 * endpoint held by a {@link Gate}, an endpoint naming the TLS client certificate, a large text body, the
 * protocol of the request as the engine saw it, a streamed binary body, an endless stream of ticks and a
 * streaming echo.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class WeftTestApplication {

    /** 4 KiB of text, above the default compression threshold. */
    static final String LARGE_TEXT = "weft ".repeat(1024 * 4 / 5);

    /** Size of each buffer of {@code /stream}; buffer {@code i} is filled with the byte {@code (byte) i}. */
    static final int STREAM_CHUNK = 64 * 1024;

    /** Number of buffers of {@code /stream}: 5 MiB in all. */
    static final int STREAM_CHUNKS = 80;

    /** The body {@code /stream} sends. */
    static byte[] streamBody() {
        byte[] body = new byte[STREAM_CHUNK * STREAM_CHUNKS];
        for (int i = 0; i < STREAM_CHUNKS; i++) {
            Arrays.fill(body, i * STREAM_CHUNK, (i + 1) * STREAM_CHUNK, (byte) i);
        }
        return body;
    }

    @Bean
    Gate gate() {
        return new Gate();
    }

    @Bean
    RouterFunction<ServerResponse> routes(Gate gate) {
        return RouterFunctions.route()
                .GET("/greeting", request -> ServerResponse.ok()
                        .contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(Map.of("message", "Hello, " + request.queryParam("name").orElse("world"))))
                .GET("/slow", request -> {
                    gate.entered.countDown();
                    return gate.released()
                            .timeout(Duration.ofSeconds(20))
                            .then(ServerResponse.ok().contentType(MediaType.TEXT_PLAIN).bodyValue("done"));
                })
                .GET("/whoami", request -> {
                    SslInfo info = request.exchange().getRequest().getSslInfo();
                    X509Certificate[] peer = info != null ? info.getPeerCertificates() : null;
                    String who = peer != null && peer.length > 0
                            ? peer[0].getSubjectX500Principal().getName() : "anonymous";
                    return ServerResponse.ok().contentType(MediaType.TEXT_PLAIN).bodyValue(who);
                })
                .GET("/large", request -> ServerResponse.ok().contentType(MediaType.TEXT_PLAIN)
                        .bodyValue(LARGE_TEXT))
                .GET("/protocol", request -> {
                    HttpExchange exchange = ServerHttpRequestDecorator.getNativeRequest(
                            request.exchange().getRequest());
                    return ServerResponse.ok().contentType(MediaType.TEXT_PLAIN).bodyValue(exchange.getProtocol());
                })
                .GET("/stream", request -> {
                    DataBufferFactory buffers = request.exchange().getResponse().bufferFactory();
                    Flux<DataBuffer> body = Flux.range(0, STREAM_CHUNKS).map(i -> {
                        byte[] chunk = new byte[STREAM_CHUNK];
                        Arrays.fill(chunk, (byte) i.intValue());
                        return buffers.wrap(chunk);
                    });
                    return ServerResponse.ok().contentType(MediaType.APPLICATION_OCTET_STREAM)
                            .body(BodyInserters.fromDataBuffers(body));
                })
                .GET("/ticks", request -> ServerResponse.ok().contentType(MediaType.TEXT_PLAIN)
                        .body(Flux.interval(Duration.ofMillis(10)).map(i -> "tick " + i + "\n"), String.class))
                .POST("/echo", request -> ServerResponse.ok().contentType(MediaType.APPLICATION_OCTET_STREAM)
                        .body(BodyInserters.fromDataBuffers(request.bodyToFlux(DataBuffer.class))))
                .build();
    }

    /** Holds {@code /slow} requests until released. */
    static final class Gate {

        final CountDownLatch entered = new CountDownLatch(1);

        final Sinks.Empty<Void> release = Sinks.empty();

        void open() {
            release.tryEmitEmpty();
        }

        Mono<Void> released() {
            return release.asMono();
        }
    }
}
