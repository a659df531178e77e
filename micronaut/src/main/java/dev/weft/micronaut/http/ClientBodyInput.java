package dev.weft.micronaut.http;

import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.Weft;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.ClosedChannelException;

/**
 * The engine's request body stream, telling Micronaut when a read failed because of the client: its body stalled
 * past the read or idle timeout, came too slowly, broke off or was malformed. The engine then answers the
 * exchange itself ({@code 408}, {@code 400}) and closes the connection, whatever the application makes of the
 * failure. Such a failure is raised as a {@link BrokenBody}, a {@link ClosedChannelException}, which Micronaut's
 * route executor counts as a client's connectivity failure (logged at {@code DEBUG}) rather than an unexpected
 * error of the application; any other failure passes unchanged.
 */
final class ClientBodyInput extends FilterInputStream {

    private final HttpExchange exchange;

    ClientBodyInput(InputStream in, HttpExchange exchange) {
        super(in);
        this.exchange = exchange;
    }

    /** A request body the client broke: what the engine said of it is the message. */
    static final class BrokenBody extends ClosedChannelException {
        private static final long serialVersionUID = 1L;

        private final String message;

        BrokenBody(IOException cause) {
            this.message = "The client's request body failed: " + cause.getMessage();
            initCause(cause);
        }

        @Override
        public String getMessage() {
            return message;
        }
    }

    @Override
    public int read() throws IOException {
        try {
            return super.read();
        } catch (IOException ex) {
            throw translated(ex);
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            return super.read(b, off, len);
        } catch (IOException ex) {
            throw translated(ex);
        }
    }

    @Override
    public long skip(long n) throws IOException {
        try {
            return super.skip(n);
        } catch (IOException ex) {
            throw translated(ex);
        }
    }

    private IOException translated(IOException failure) {
        return Weft.isCutShort(exchange) ? new BrokenBody(failure) : failure;
    }
}
