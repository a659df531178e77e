package dev.weft.micronaut.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import io.micronaut.http.ByteBodyHttpResponse;
import io.micronaut.http.body.AvailableByteBody;
import io.micronaut.http.body.ByteBody;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * Sends a response Micronaut has encoded onto the exchange: its status and header fields (the engine frames
 * the body itself, so {@code Content-Length} and {@code Transfer-Encoding} are left to it), then the body,
 * with a fixed length when its bytes are all there, else as a stream (see {@link StreamedBody}).
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
                StreamedBody.write(body.toByteArrayPublisher(), out);
                out.close();
            }
        }
        exchange.close();
    }
}
