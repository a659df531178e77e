package dev.weft.spring.boot.reactive;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ZeroCopyHttpOutputMessage;
import org.springframework.http.server.reactive.AbstractServerHttpResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Weft exchange's response as spring-web's {@code ServerHttpResponse}. Status, headers and cookies are
 * copied to the exchange at commit; body buffers are handed one at a time to the connection thread, which
 * writes them (see {@link ExchangeOutput}), so the pipeline never blocks on the socket; more are requested
 * ahead ({@value #PREFETCH}), and a slow client slows the publisher down. A file region
 * ({@link ZeroCopyHttpOutputMessage}, which Spring's {@code ResourceHttpMessageWriter} uses for file resources) is
 * written by the connection thread too, from the file to the socket without copying on cleartext HTTP/1.1.
 */
public final class WeftServerHttpResponse extends AbstractServerHttpResponse implements ZeroCopyHttpOutputMessage {

    /** Elements of a body requested ahead of the one being written. */
    static final int PREFETCH = 128; // as Reactor Netty: a publisher that cannot slow down (Flux.interval) survives a stall

    private final HttpExchange exchange;
    private final ExchangeLoop loop;
    private final ExchangeOutput output;

    WeftServerHttpResponse(HttpExchange exchange, DataBufferFactory bufferFactory, ExchangeLoop loop,
                           ExchangeOutput output) {
        super(bufferFactory);
        this.exchange = exchange;
        this.loop = loop;
        this.output = output;
    }

    /** The status set by the application, or 200 (what is sent when none was set). */
    @Override
    public HttpStatusCode getStatusCode() {
        HttpStatusCode status = super.getStatusCode();
        return status != null ? status : HttpStatus.OK;
    }

    /** The engine's {@link HttpExchange}. */
    @Override
    @SuppressWarnings("unchecked")
    public <T> T getNativeResponse() {
        return (T) exchange;
    }

    /**
     * Hands the exchange over to another protocol (a WebSocket session): commits this response (commit
     * actions run; status, headers and cookies are copied to the exchange, for the protocol's handshake
     * answer), then runs {@code protocol} on the connection thread, which it may keep for as long as the
     * protocol runs. Nothing more is written on the exchange by this response or its adapter afterwards.
     *
     * @return completes when {@code protocol} has returned, or fails with what it threw; fails with
     *         {@link IllegalStateException} if the response was already committed
     */
    public Mono<Void> upgrade(Upgrade protocol) {
        if (isCommitted()) {
            return Mono.error(new IllegalStateException("The response is already committed; cannot upgrade"));
        }
        return doCommit(() -> {
            Headers headers = exchange.getResponseHeaders();
            headers.remove("Content-Length");
            headers.remove("Transfer-Encoding");
            output.upgraded();
            return loop.submit(() -> protocol.run(exchange), () -> { });
        });
    }

    /** Another protocol that takes over an exchange; see {@link #upgrade}. */
    @FunctionalInterface
    public interface Upgrade {
        /** Runs the protocol on {@code exchange}, on the connection thread, until it ends. */
        void run(HttpExchange exchange) throws IOException;
    }

    /**
     * Commits the response and sends {@code count} bytes of {@code file} from {@code position} as its body, on the
     * connection thread: from the file to the socket without copying them through the heap on cleartext HTTP/1.1
     * ({@link dev.weft.httpserver.Weft#sendFile}), copied over TLS and HTTP/2 and into the compressor when the
     * response is gzipped. Set {@code Content-Length} to {@code count} first, as Spring's writers do, for a
     * fixed-length body; without it the body is chunked.
     */
    @Override
    public Mono<Void> writeWith(Path file, long position, long count) {
        return doCommit(() -> loop.submit(() -> output.writeFile(file, position, count), () -> { }));
    }

    @Override
    protected void applyStatusCode() {
        output.status(getStatusCode().value());
    }

    @Override
    protected void applyHeaders() {
        Headers target = exchange.getResponseHeaders();
        getHeaders().forEach((name, values) -> target.put(name, new ArrayList<>(values)));
        output.contentLength(getHeaders().getContentLength());
    }

    @Override
    protected void applyCookies() {
        Headers target = exchange.getResponseHeaders();
        for (List<ResponseCookie> cookies : getCookies().values()) {
            for (ResponseCookie cookie : cookies) {
                target.add("Set-Cookie", cookie.toString());
            }
        }
    }

    @Override
    protected Mono<Void> writeWithInternal(Publisher<? extends DataBuffer> body) {
        // One buffer is written at a time, by the connection thread; up to PREFETCH more are requested ahead, so
        // that a publisher that cannot slow down (Flux.interval) is not overrun by a moment's delay, while a slow
        // client still slows the publisher down.
        return Flux.from(body)
                .concatMap(buffer -> loop.submit(() -> output.write(buffer), () -> DataBufferUtils.release(buffer)),
                        PREFETCH)
                .doOnDiscard(DataBuffer.class, DataBufferUtils::release)
                .then();
    }

    @Override
    protected Mono<Void> writeAndFlushWithInternal(Publisher<? extends Publisher<? extends DataBuffer>> body) {
        return Flux.from(body)
                .concatMap(part -> writeWithInternal(part).then(loop.submit(output::flush, () -> { })), PREFETCH)
                .then();
    }
}
