package dev.weft.spring.boot.reactive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the client's request body breaks (malformed, reset mid-upload), the engine gives the answer that fits
 * and counts the event; the adapter neither turns it into a 500 nor writes a warning for it.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ClientBodyFailureTest {

    /** Reads the whole body, then answers with its length. */
    private static final HttpHandler COUNTING = (request, response) -> DataBufferUtils.join(request.getBody())
            .map(buffer -> {
                int n = buffer.readableByteCount();
                DataBufferUtils.release(buffer);
                return n;
            })
            .defaultIfEmpty(0)
            .flatMap(n -> response.writeWith(Mono.just(response.bufferFactory()
                    .wrap(("read " + n).getBytes(StandardCharsets.UTF_8)))));

    @Test
    void malformedChunkedBodyGets400NotA500(CapturedOutput output) throws Exception {
        try (AdapterServer server = AdapterServer.start(COUNTING)) {
            String response = RawHttp.exchange(server.port(), "POST /count HTTP/1.1\r\nHost: x\r\n"
                    + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nhello\r\nzz\r\n\r\n");

            assertThat(response).startsWith("HTTP/1.1 400 ");
        }
        assertThat(output.getAll()).doesNotContain("WARN").doesNotContain("answering 500");
    }

    @Test
    void clientResetMidUploadIsNotAWarning(CapturedOutput output) throws Exception {
        CompletableFuture<Void> bodyStarted = new CompletableFuture<>();
        HttpHandler handler = (request, response) -> DataBufferUtils.join(request.getBody()
                        .doOnNext(b -> bodyStarted.complete(null)))
                .flatMap(buffer -> response.writeWith(Mono.just(buffer)));
        try (AdapterServer server = AdapterServer.start(handler)) {
            try (Socket socket = new Socket("127.0.0.1", server.port())) {
                OutputStream out = socket.getOutputStream();
                out.write(("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.write(new byte[64 * 1024]);
                out.flush();
                bodyStarted.get(10, TimeUnit.SECONDS);
                socket.setSoLinger(true, 0); // close with a reset, mid-body
            }
            // A following request proves the server handled the reset before we look at the log.
            assertThat(RawHttp.exchange(server.port(), "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
                    + "Connection: close\r\n\r\nok")).startsWith("HTTP/1.1 200 ").endsWith("\r\n2\r\nok\r\n0\r\n\r\n");
        }
        assertThat(output.getAll()).doesNotContain("WARN");
    }
}
