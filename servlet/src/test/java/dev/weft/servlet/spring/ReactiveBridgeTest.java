package dev.weft.servlet.spring;

import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.ServletServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServletHttpHandlerAdapter;
import reactor.core.publisher.Flux;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Spring's reactive-over-servlet bridge ({@link ServletHttpHandlerAdapter}), which drives the request and the
 * response entirely through {@code ReadListener}, {@code WriteListener} and {@code isReady}: the non-blocking
 * I/O contract as a real framework uses it.
 */
class ReactiveBridgeTest {

    private static ServletServer server;

    /** Echoes the request body; {@code /ticks} streams five lines, one at a time. */
    private static final HttpHandler HANDLER = (request, response) -> {
        if (request.getPath().value().equals("/ticks")) {
            response.getHeaders().setContentType(MediaType.TEXT_PLAIN);
            Flux<DataBuffer> ticks = Flux.range(0, 5).delayElements(Duration.ofMillis(5))
                    .map(i -> response.bufferFactory().wrap(("tick " + i + "\n").getBytes(StandardCharsets.US_ASCII)));
            return response.writeAndFlushWith(ticks.map(Flux::just));
        }
        response.getHeaders().setContentType(MediaType.APPLICATION_OCTET_STREAM);
        return response.writeWith(request.getBody());
    };

    @BeforeAll
    static void start() throws IOException {
        server = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            var bridge = ctx.addServlet("reactive", new ServletHttpHandlerAdapter(HANDLER));
            bridge.addMapping("/");
            bridge.setAsyncSupported(true);
        }));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aLargeBodyIsEchoedThroughTheListeners() throws Exception {
        byte[] data = new byte[2_000_000];
        new Random(11).nextBytes(data);
        Path in = Files.createTempFile("reactive", ".in");
        Path out = Files.createTempFile("reactive", ".out");
        Files.write(in, data);
        Curl.ok("--data-binary", "@" + in, "-H", "Content-Type: application/octet-stream", "-o", out.toString(),
                "http://127.0.0.1:" + server.port() + "/echo");
        assertArrayEquals(data, Files.readAllBytes(out));
    }

    @Test
    void aStreamedResponseIsWrittenAndFlushedPieceByPiece() throws Exception {
        Curl c = Curl.ok("-N", "http://127.0.0.1:" + server.port() + "/ticks");
        assertEquals("tick 0\ntick 1\ntick 2\ntick 3\ntick 4\n", c.out());
    }

    @Test
    void theSameOverH2c() throws Exception {
        Curl c = Curl.ok("--http2-prior-knowledge", "--data-binary", "over h2c", "http://127.0.0.1:" + server.port()
                + "/echo");
        assertEquals("over h2c", c.out());
    }
}
