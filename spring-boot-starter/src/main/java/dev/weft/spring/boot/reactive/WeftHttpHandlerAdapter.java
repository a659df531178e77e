package dev.weft.spring.boot.reactive;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.Weft;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHeadResponseDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.net.URISyntaxException;
import java.util.Objects;

/**
 * Serves a spring-web reactive {@link HttpHandler} on a Weft server: register it as the handler of the
 * {@code "/"} context.
 *
 * <p>Threading: {@link #handle} runs on the connection's virtual thread (the server calls it there whatever
 * its thread settings, {@link Weft#runInline}) and stays there for the whole exchange, as its I/O thread: it
 * runs an {@link ExchangeLoop} serving request-body reads (on demand) and response writes and flushes (one
 * buffer at a time) until the application's pipeline terminates, then completes the exchange. The pipeline is
 * subscribed where the server runs application code ({@link Weft#applicationExecutor}: its platform threads
 * by default, a fresh virtual thread with {@code spring.threads.virtual.enabled}) and afterwards runs wherever
 * its operators put it; it never blocks on the socket, and a handler that blocks cannot stall the I/O it waits
 * for.
 *
 * <p>A request spring-web cannot represent (its URI cannot be built from the target and {@code Host}) gets a
 * 400. When the pipeline fails before the response is committed, the client gets a 500. When it fails after
 * (headers, perhaps part of the body, already sent), the connection is broken off so the client cannot take
 * the truncated body for a complete one.
 */
public final class WeftHttpHandlerAdapter implements com.sun.net.httpserver.HttpHandler {

    private static final Log logger = LogFactory.getLog(WeftHttpHandlerAdapter.class);

    private final HttpHandler httpHandler;
    private final WeftCompression compression;
    private final DataBufferFactory bufferFactory = DefaultDataBufferFactory.sharedInstance;

    /**
     * @param httpHandler the application
     * @param compression response compression, {@link WeftCompression#DISABLED} for none
     */
    public WeftHttpHandlerAdapter(HttpHandler httpHandler, WeftCompression compression) {
        this.httpHandler = Objects.requireNonNull(httpHandler, "httpHandler");
        this.compression = Objects.requireNonNull(compression, "compression");
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        // Waiting for the pipeline is not running: the thread keeps its turn for the I/O it then does.
        ExchangeLoop loop = new ExchangeLoop(since -> Weft.threadWaited(exchange, since));
        RequestBodyPublisher body = new RequestBodyPublisher(exchange.getRequestBody(), loop, bufferFactory);
        WeftServerHttpRequest request;
        try {
            request = new WeftServerHttpRequest(exchange, body);
        } catch (URISyntaxException | RuntimeException ex) {
            // The engine validated the request line; whatever a client can still put there that spring-web
            // cannot take (an odd Host, say) is the client's error, never a 500.
            if (logger.isDebugEnabled()) {
                logger.debug("Rejecting request with an invalid URI or Host: " + ex);
            }
            exchange.sendResponseHeaders(400, -1);
            exchange.close();
            return;
        }
        ExchangeOutput output = new ExchangeOutput(exchange, compression);
        loop.whenIdle(output::flushWritten);
        WeftServerHttpResponse response = new WeftServerHttpResponse(exchange, bufferFactory, loop, output);
        ServerHttpResponse target = HttpMethod.HEAD.equals(request.getMethod())
                ? new HttpHeadResponseDecorator(response) : response;

        Mono<Void> processing = Mono.defer(() -> httpHandler.handle(request, target))
                .then(Mono.defer(target::setComplete))
                .onErrorResume(ex -> body.readFailure() != null ? Mono.error(ex) : recover(ex, request, response));
        // The handler is invoked where the server runs application code (platform threads, or a fresh virtual
        // thread when spring.threads.virtual.enabled is on): if it blocks (say on its own request body), this
        // thread is free to serve the reads and writes it waits for.
        Disposable.Swap pipeline = Disposables.swap();
        Weft.applicationExecutor(exchange.getHttpContext().getServer()).execute(() -> pipeline.update(
                processing.subscribe(null, loop::terminate, () -> loop.terminate(null))));
        Throwable failure = loop.run();
        if (failure == null) {
            output.complete();
            return;
        }
        pipeline.dispose();
        IOException bodyFailure = body.readFailure();
        if (bodyFailure != null && !output.started()) {
            // The client's body broke (reset, malformed, too slow): the engine answers with the status that
            // fits (400, 408, 413) and counts it; nothing for the application's log.
            logger.debug(describe(request) + ": the request body could not be read: " + bodyFailure);
            throw bodyFailure;
        }
        if (bodyFailure != null || output.writeFailed()) {
            logger.debug(describe(request) + ": the client went away: " + failure);
        } else if (failure instanceof InterruptedException) {
            // The server is stopping and closed this connection: nothing to report.
            logger.debug(describe(request) + " interrupted by the server stopping");
        } else if (!output.started()) {
            logger.warn(describe(request) + " failed before the response was sent; answering 500", failure);
        } else if (logger.isDebugEnabled()) {
            // The failure goes back to the engine, which logs it and counts it as a handler exception.
            logger.debug(describe(request) + " failed after the response was committed; aborting the connection",
                    failure);
        }
        output.fail(failure);
    }

    /** Before commit: answer 500 through the normal path (commit actions run). After: fail the exchange. */
    private static Mono<Void> recover(Throwable ex, WeftServerHttpRequest request, WeftServerHttpResponse response) {
        if (response.isCommitted()) {
            return Mono.error(ex);
        }
        logger.warn(describe(request) + " failed; answering 500", ex);
        response.getHeaders().clear();
        response.getCookies().clear();
        response.setStatusCode(HttpStatus.INTERNAL_SERVER_ERROR);
        return response.setComplete();
    }

    private static String describe(WeftServerHttpRequest request) {
        return request.getMethod() + " " + request.getPath();
    }

    /** The compression this adapter applies. */
    public WeftCompression compression() {
        return compression;
    }

    @Override
    public String toString() {
        return "WeftHttpHandlerAdapter[" + httpHandler + "]";
    }
}
