package dev.weft.servlet.request;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.servlet.context.WeftServletContext;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The connection an {@link HttpUpgradeHandler} gets after {@code 101 Switching Protocols} (Servlet 6.1
 * §2.3.3.5): the engine's raw streams of the HTTP/1.1 connection. The input supports a {@code ReadListener};
 * the output's writes block (on the caller's virtual thread), so {@code isReady()} is always true and a
 * {@code WriteListener} is told once. Closing it destroys the handler and ends the exchange, which closes the
 * connection.
 */
public final class UpgradeConnection implements WebConnection {


    private final HttpExchange exchange;
    private final HttpUpgradeHandler handler;
    private final WeftServletContext context;
    private final RequestInput input;
    private final Output output;
    private final AtomicBoolean closed = new AtomicBoolean();

    UpgradeConnection(HttpExchange exchange, HttpUpgradeHandler handler, WeftServletContext context) {
        this.exchange = exchange;
        this.handler = handler;
        this.context = context;
        this.input = new RequestInput(exchange.getRequestBody(), false, context, () -> true);
        this.output = new Output(exchange.getResponseBody());
    }

    @Override
    public ServletInputStream getInputStream() {
        return input;
    }

    @Override
    public ServletOutputStream getOutputStream() {
        return output;
    }

    /** Ends the upgraded connection: the handler's {@code destroy}, then the exchange closes. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            context.runCallback(handler::destroy, "HttpUpgradeHandler.destroy");
        } finally {
            exchange.close();
        }
    }

    /** Blocking output over the raw connection. */
    private final class Output extends ServletOutputStream {
        private final OutputStream raw;

        Output(OutputStream raw) {
            this.raw = raw;
        }

        @Override
        public void write(int b) throws IOException {
            raw.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            raw.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            raw.flush();
        }

        @Override
        public void close() {
            UpgradeConnection.this.close();
        }

        @Override
        public boolean isReady() {
            return !closed.get();
        }

        @Override
        public void setWriteListener(WriteListener writeListener) {
            Objects.requireNonNull(writeListener, "write listener");
            Thread.ofVirtual().name("weft-servlet-upgrade-write").start(() -> {
                try {
                    context.runAsApplication(writeListener::onWritePossible);
                } catch (Exception e) {
                    context.runCallback(() -> writeListener.onError(e), "WriteListener.onError");
                }
            });
        }
    }
}
