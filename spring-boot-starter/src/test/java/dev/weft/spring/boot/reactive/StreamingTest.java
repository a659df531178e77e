package dev.weft.spring.boot.reactive;

import dev.weft.httpserver.testing.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.reactivestreams.Subscription;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.BaseSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Request bodies streamed with back-pressure, and response bodies flushed as they are produced. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StreamingTest {

    private static final long FIFTY_MB = 50L * 1024 * 1024;
    private static final long MB = 1024 * 1024;

    @Test
    void fiftyMegabyteUploadIsCountedInSmallChunksWithoutBufferingTheBody() throws Exception {
        AtomicLong largestChunk = new AtomicLong();
        AtomicLong heapAtHalfway = new AtomicLong(-1);
        var routes = RouterFunctions.route().POST("/count", request -> request.body(BodyExtractors.toDataBuffers())
                .reduce(0L, (count, buffer) -> {
                    int size = buffer.readableByteCount();
                    largestChunk.accumulateAndGet(size, Math::max);
                    DataBufferUtils.release(buffer);
                    if (count < FIFTY_MB / 2 && count + size >= FIFTY_MB / 2) {
                        heapAtHalfway.set(usedHeapAfterGc());
                    }
                    return count + size;
                })
                .flatMap(count -> ServerResponse.ok().bodyValue(Long.toString(count)))).build();
        try (AdapterServer server = AdapterServer.start(routes)) {
            long heapBefore = usedHeapAfterGc();
            HttpResponse<String> response = AdapterServer.client().send(HttpRequest.newBuilder(server.uri("/count"))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new GeneratedStream(FIFTY_MB, null)))
                    .build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo(Long.toString(FIFTY_MB));
            assertThat(largestChunk.get()).isPositive().isLessThanOrEqualTo(64 * 1024);
            assertThat(heapAtHalfway.get()).isNotNegative();
            assertThat(heapAtHalfway.get() - heapBefore).as("heap growth halfway through the upload")
                    .isLessThan(16 * MB);
        }
    }

    @Test
    void bodyIsReadOnlyAsFastAsTheHandlerRequestsIt() throws Exception {
        AtomicInteger chunksReceived = new AtomicInteger();
        CompletableFuture<Void> gate = new CompletableFuture<>();
        HttpHandler handler = (request, response) -> {
            Sinks.One<Long> total = Sinks.one();
            request.getBody().subscribe(new BaseSubscriber<DataBuffer>() {
                private long count;

                @Override
                protected void hookOnSubscribe(Subscription subscription) {
                    request(1); // one chunk, then nothing until the gate opens
                    gate.thenRun(() -> request(Long.MAX_VALUE));
                }

                @Override
                protected void hookOnNext(DataBuffer buffer) {
                    chunksReceived.incrementAndGet();
                    count += buffer.readableByteCount();
                    DataBufferUtils.release(buffer);
                }

                @Override
                protected void hookOnComplete() {
                    total.tryEmitValue(count);
                }
            });
            return total.asMono().flatMap(n -> response.writeWith(
                    Mono.just(response.bufferFactory().wrap(Long.toString(n).getBytes()))));
        };
        try (AdapterServer server = AdapterServer.start(handler)) {
            AtomicLong supplied = new AtomicLong();
            CompletableFuture<HttpResponse<String>> pending = AdapterServer.client().sendAsync(
                    HttpRequest.newBuilder(server.uri("/slow"))
                            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new GeneratedStream(FIFTY_MB, supplied)))
                            .build(), HttpResponse.BodyHandlers.ofString());

            long stalledAt = waitUntilStalled(supplied);
            assertThat(chunksReceived.get()).isEqualTo(1);
            assertThat(stalledAt).as("bytes the client could send before back-pressure stopped it")
                    .isLessThan(20 * MB);

            gate.complete(null);
            HttpResponse<String> response = pending.get(30, TimeUnit.SECONDS);
            assertThat(response.body()).isEqualTo(Long.toString(FIFTY_MB));
            assertThat(supplied.get()).isEqualTo(FIFTY_MB);
        }
    }

    @Test
    void serverSentEventsReachTheClientOneByOne() throws Exception {
        // Each event is produced only once the client has received the one before: events held back in a
        // buffer until the end of the stream would never arrive, and the test would time out.
        Sinks.Many<ServerSentEvent<String>> events = Sinks.many().unicast().onBackpressureBuffer();
        var type = new ParameterizedTypeReference<ServerSentEvent<String>>() {
        };
        var routes = RouterFunctions.route()
                .GET("/warm-up", request -> ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM)
                        .body(Flux.just(ServerSentEvent.builder("warm").build()), type))
                .GET("/sse", request -> ServerResponse.ok().contentType(MediaType.TEXT_EVENT_STREAM)
                        .body(events.asFlux(), type))
                .build();
        try (AdapterServer server = AdapterServer.start(routes)) {
            // Warm up: the first response loads the codecs.
            AdapterServer.client().send(HttpRequest.newBuilder(server.uri("/warm-up")).build(),
                    HttpResponse.BodyHandlers.discarding());
            events.tryEmitNext(ServerSentEvent.builder("event-0").build()).orThrow();
            HttpResponse<Stream<String>> response = AdapterServer.client().send(
                    HttpRequest.newBuilder(server.uri("/sse")).build(), HttpResponse.BodyHandlers.ofLines());
            List<String> data = new ArrayList<>();
            try (Stream<String> lines = response.body()) {
                for (Iterator<String> it = lines.iterator(); it.hasNext(); ) {
                    String line = it.next();
                    if (line.startsWith("data:")) {
                        data.add(line);
                        if (data.size() < 3) {
                            events.tryEmitNext(ServerSentEvent.builder("event-" + data.size()).build()).orThrow();
                        } else {
                            events.tryEmitComplete().orThrow();
                        }
                    }
                }
            }

            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                    v -> assertThat(v).startsWith("text/event-stream"));
            assertThat(data).containsExactly("data:event-0", "data:event-1", "data:event-2");
        }
    }

    @Test
    void aPlainBodyProducedSlowlyReachesTheClientPartByPart() throws Exception {
        // Not an event stream (writeWith, no flush asked for): each line is produced only once the client has
        // received the one before, so a line held back in a buffer while nothing follows would hang the test.
        Sinks.Many<String> lines = Sinks.many().unicast().onBackpressureBuffer();
        var routes = RouterFunctions.route()
                .GET("/lines", request -> ServerResponse.ok().contentType(MediaType.TEXT_PLAIN)
                        .body(lines.asFlux(), String.class))
                .build();
        try (AdapterServer server = AdapterServer.start(routes)) {
            lines.tryEmitNext("line 0\n").orThrow();
            HttpResponse<Stream<String>> response = AdapterServer.client().send(
                    HttpRequest.newBuilder(server.uri("/lines")).build(), HttpResponse.BodyHandlers.ofLines());
            List<String> received = new ArrayList<>();
            try (Stream<String> body = response.body()) {
                for (Iterator<String> it = body.iterator(); it.hasNext(); ) {
                    received.add(it.next());
                    if (received.size() < 3) {
                        lines.tryEmitNext("line " + received.size() + "\n").orThrow();
                    } else {
                        lines.tryEmitComplete().orThrow();
                    }
                }
            }

            assertThat(received).containsExactly("line 0", "line 1", "line 2");
        }
    }

    @Test
    void aTickingPublisherThatCannotSlowDownIsNotOverrunByAMomentsDelay() throws Exception {
        // Flux.interval fails when it must emit with nothing requested: the response asks for several parts
        // ahead of the one it writes, as other servers do, not one at a time.
        var routes = RouterFunctions.route()
                .GET("/ticks", request -> ServerResponse.ok().contentType(MediaType.TEXT_PLAIN)
                        .body(Flux.interval(java.time.Duration.ofMillis(1)).take(200).map(i -> i + "\n"),
                                String.class))
                .build();
        try (AdapterServer server = AdapterServer.start(routes)) {
            HttpResponse<String> response = AdapterServer.client().send(
                    HttpRequest.newBuilder(server.uri("/ticks")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body().lines()).hasSize(200).endsWith("199");
        }
    }

    /**
     * Waits until the client has made no progress for half a second; returns how many bytes it supplied. TCP
     * back-pressure shows only as the absence of progress (there is no later event to wait for instead);
     * {@code RequestBodyPublisherTest} proves with sentinels that nothing is read without demand.
     */
    private static long waitUntilStalled(AtomicLong supplied) {
        long[] last = {-1};
        long[] since = {System.nanoTime()};
        return Await.value("the client to stall", supplied::get, now -> {
            if (now != last[0]) {
                last[0] = now;
                since[0] = System.nanoTime();
                return false;
            }
            return now > 0 && System.nanoTime() - since[0] >= TimeUnit.MILLISECONDS.toNanos(500);
        });
    }

    static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** {@code length} generated bytes, counting what has been read into {@code counter} when given. */
    static final class GeneratedStream extends InputStream {
        private final long length;
        private final AtomicLong counter;
        private long position;

        GeneratedStream(long length, AtomicLong counter) {
            this.length = length;
            this.counter = counter;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (position >= length) {
                return -1;
            }
            int n = (int) Math.min(len, length - position);
            for (int i = 0; i < n; i++) {
                b[off + i] = (byte) ('a' + (position + i) % 26);
            }
            position += n;
            if (counter != null) {
                counter.addAndGet(n);
            }
            return n;
        }
    }
}
