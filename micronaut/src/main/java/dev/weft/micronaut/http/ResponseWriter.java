package dev.weft.micronaut.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import io.micronaut.http.ByteBodyHttpResponse;
import io.micronaut.http.body.AvailableByteBody;
import io.micronaut.http.body.ByteBody;
import io.micronaut.http.body.stream.InputStreamByteBody;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * Sends a response Micronaut has encoded onto the exchange: its status and header fields (the engine frames
 * the body itself, so {@code Content-Length} and {@code Transfer-Encoding} are left to it), then the body,
 * with a fixed length when its bytes are all there, else as a stream (see {@link StreamedBody}).
 *
 * <p>A body read from an {@code InputStream} ({@code SystemFile}, {@code StreamedFile}, {@code InputStream}
 * routes: Micronaut's {@link InputStreamByteBody}) is copied from that stream on the exchange's thread rather than
 * through its publisher: the publisher reads the stream on the I/O executor once per {@code request(n)}, and two
 * requests overlapping there read and emit concurrently, so pieces of a file of a few MiB went out of order.
 */
final class ResponseWriter {

    private ResponseWriter() {
    }

    static void write(HttpExchange exchange, ByteBodyHttpResponse<?> response) throws IOException {
        Headers headers = exchange.getResponseHeaders();
        for (Map.Entry<String, List<String>> field : response.getHeaders()) {
            String name = field.getKey();
            if (!name.equalsIgnoreCase("Content-Length") && !name.equalsIgnoreCase("Transfer-Encoding")) {
                headers.put(name, field.getValue());
            }
        }
        int status = response.code();
        try (response) {
            ByteBody body = response.byteBody();
            if (body instanceof AvailableByteBody available) {
                byte[] bytes = available.toByteArray();
                exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
                if (bytes.length > 0) {
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(bytes);
                    }
                }
            } else {
                long length = body.expectedLength().orElse(0);
                exchange.sendResponseHeaders(status, length);
                OutputStream out = exchange.getResponseBody();
                if (body instanceof InputStreamByteBody) {
                    try (InputStream in = body.toInputStream()) {
                        in.transferTo(out);
                    }
                } else {
                    StreamedBody.write(body.toByteArrayPublisher(), out);
                }
                out.close();
            }
        }
        exchange.close();
    }
}
