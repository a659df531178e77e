package dev.weft.httpserver.server;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code HttpExchange} semantics of the JDK's own server that applications rely on, checked with the JDK's
 * clients: an exchange ends when it is closed, not when {@code handle()} returns; a response completed
 * before {@code stop} reaches the client; a body read as a stream has no size limit by default.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JdkExchangeSemanticsTest {

    private TestServer server;
    private final ExecutorService completions = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        completions.shutdownNow();
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest(name = "server executor: {0}")
    @ValueSource(booleans = {false, true})
    void bodyCompletedFromAnotherThreadAfterHandleReturnedArrivesWhole(boolean serverExecutor) throws Exception {
        CountDownLatch handleReturned = new CountDownLatch(1);
        ExecutorService pool = serverExecutor ? Executors.newFixedThreadPool(2) : null;
        server = TestServer.builder().executor(pool).start();
        HttpContext context = server.server().createContext("/later", exchange -> {
            exchange.sendResponseHeaders(200, 0);
            OutputStream body = exchange.getResponseBody();
            body.write("first part, written in handle()\n".getBytes(StandardCharsets.US_ASCII));
            completions.execute(() -> {
                try {
                    handleReturned.await();
                    body.write("second part, written after handle() returned\n".getBytes(StandardCharsets.US_ASCII));
                    exchange.close();
                } catch (IOException | InterruptedException e) {
                    throw new RuntimeException(e);
                }
            });
        });
        // A filter around the handler: it signals only once handle() has returned.
        context.getFilters().add(Filter.afterHandler("signals that handle() returned", e -> handleReturned.countDown()));
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(server.uri("/later")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertEquals(200, r.statusCode());
            assertEquals("first part, written in handle()\nsecond part, written after handle() returned\n", r.body());
        } finally {
            if (pool != null) {
                pool.shutdownNow();
            }
        }
    }

    @Test
    void responseClosedBeforeStopFromTheHandlerReachesTheClient() throws Exception {
        server = TestServer.builder().start();
        HttpServer http = server.server();
        http.createContext("/stop", exchange -> {
            TestServer.respond(exchange, 200, "answered, then stopped the server");
            http.stop(0);
        });

        HttpURLConnection c = (HttpURLConnection) server.uri("/stop").toURL().openConnection();
        c.setReadTimeout(10_000);
        try (InputStream in = c.getInputStream()) {
            assertEquals(200, c.getResponseCode());
            assertEquals("answered, then stopped the server", new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } finally {
            c.disconnect();
        }
    }

    @Test
    void streamedUploadOfFourGibibytesIsAcceptedWithTheDefaultSettings() throws Exception {
        long size = 4L << 30;
        server = TestServer.builder()
                .handle("/upload", exchange -> TestServer.respond(exchange, 200,
                        Long.toString(TestServer.drain(exchange.getRequestBody()))))
                .start();
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpRequest request = HttpRequest.newBuilder(server.uri("/upload"))
                    .POST(HttpRequest.BodyPublishers.fromPublisher(
                            HttpRequest.BodyPublishers.ofInputStream(() -> new ZeroStream(size)), size))
                    .build();

            HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());

            assertEquals(200, r.statusCode());
            assertEquals(Long.toString(size), r.body());
        }
        Await.until("the upload counted in the statistics", () -> server.stats().bytesReceived() > size);
    }

    /** {@code size} zero bytes, generated as they are read. */
    private static final class ZeroStream extends InputStream {
        private long left;

        ZeroStream(long size) {
            left = size;
        }

        @Override
        public int read() {
            if (left == 0) {
                return -1;
            }
            left--;
            return 0;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left == 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            java.util.Arrays.fill(b, off, off + n, (byte) 0);
            left -= n;
            return n;
        }
    }
}
