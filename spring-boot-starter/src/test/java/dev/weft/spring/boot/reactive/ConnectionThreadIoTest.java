package dev.weft.spring.boot.reactive;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.NettyDataBufferFactory;
import org.springframework.core.io.buffer.PooledDataBuffer;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every socket read and write of an exchange happens on the connection's thread, even when the pipeline emits
 * on Reactor's threads. An engine filter wraps the exchange's streams to record which threads use them.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionThreadIoTest {

    private final AtomicReference<Thread> connectionThread = new AtomicReference<>();
    private final Set<String> ioThreads = ConcurrentHashMap.newKeySet();
    private final Set<String> pipelineThreads = ConcurrentHashMap.newKeySet();

    @Test
    void readsAndWritesStayOnTheConnectionThreadWhilePipelineRunsOnReactorThreads() throws Exception {
        HttpHandler handler = (request, response) -> {
            Flux<DataBuffer> echoed = request.getBody()
                    .publishOn(Schedulers.parallel())
                    .delayElements(Duration.ofMillis(5))
                    .doOnNext(buffer -> pipelineThreads.add(Thread.currentThread().getName()));
            return response.writeAndFlushWith(echoed.map(Mono::just));
        };
        try (AdapterServer server = AdapterServer.start(handler)) {
            server.context().getFilters().add(new RecordingFilter());
            byte[] body = new byte[100 * 1024];
            for (int i = 0; i < body.length; i++) {
                body[i] = (byte) i;
            }
            HttpResponse<byte[]> response = AdapterServer.client().send(HttpRequest.newBuilder(server.uri("/"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());

            assertThat(response.body()).isEqualTo(body);
            assertThat(pipelineThreads).isNotEmpty().allSatisfy(name -> assertThat(name).startsWith("parallel-"));
            assertThat(ioThreads).containsExactly(connectionThread.get().getName());
        }
    }

    @Test
    void bodyBuffersFromAnotherFactoryAreWrittenAndReleased() throws Exception {
        NettyDataBufferFactory direct = new NettyDataBufferFactory(new UnpooledByteBufAllocator(true));
        List<PooledDataBuffer> written = new CopyOnWriteArrayList<>();
        HttpHandler handler = (request, response) -> response.writeWith(Flux.range(0, 20)
                .map(i -> {
                    byte[] bytes = new byte[1024];
                    Arrays.fill(bytes, (byte) ('a' + i));
                    PooledDataBuffer buffer = (PooledDataBuffer) direct.allocateBuffer(1024).write(bytes);
                    written.add(buffer);
                    return (DataBuffer) buffer;
                }).publishOn(Schedulers.boundedElastic()));
        try (AdapterServer server = AdapterServer.start(handler)) {
            HttpResponse<byte[]> response = AdapterServer.client().send(
                    HttpRequest.newBuilder(server.uri("/")).build(), HttpResponse.BodyHandlers.ofByteArray());

            assertThat(response.body()).hasSize(20 * 1024);
            assertThat(response.body()[0]).isEqualTo((byte) 'a');
            assertThat(response.body()[20 * 1024 - 1]).isEqualTo((byte) ('a' + 19));
            assertThat(written).hasSize(20).noneMatch(PooledDataBuffer::isAllocated);
        }
    }

    /** Wraps the exchange's streams; records the thread running the chain and every thread doing I/O. */
    private final class RecordingFilter extends Filter {
        @Override
        public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
            connectionThread.set(Thread.currentThread());
            InputStream in = new FilterInputStream(exchange.getRequestBody()) {
                @Override
                public int read(byte[] b, int off, int len) throws IOException {
                    ioThreads.add(Thread.currentThread().getName());
                    return super.read(b, off, len);
                }
            };
            OutputStream out = new FilterOutputStream(exchange.getResponseBody()) {
                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    ioThreads.add(Thread.currentThread().getName());
                    out.write(b, off, len);
                }

                @Override
                public void flush() throws IOException {
                    ioThreads.add(Thread.currentThread().getName());
                    out.flush();
                }
            };
            exchange.setStreams(in, out);
            chain.doFilter(exchange);
        }

        @Override
        public String description() {
            return "records I/O threads";
        }
    }
}
