package dev.weft.servlet.async;

import dev.weft.httpserver.testing.Await;
import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.ServletServer;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Non-blocking I/O (Servlet 6.1 §3.7, §5.3): {@code ReadListener}, {@code WriteListener} and {@code isReady}. */
class NonBlockingIoTest {

    private static ServletServer server;
    private static final AtomicLong received = new AtomicLong();
    private static final AtomicInteger dataAvailableCalls = new AtomicInteger();

    @BeforeAll
    static void start() throws IOException {
        server = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            var echo = ctx.addServlet("echo", new HttpServlet() {
                @Override
                protected void doPost(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                    AsyncContext ac = req.startAsync();
                    ServletInputStream in = req.getInputStream();
                    ByteArrayOutputStream body = new ByteArrayOutputStream();
                    in.setReadListener(new ReadListener() {
                        @Override
                        public void onDataAvailable() throws IOException {
                            dataAvailableCalls.incrementAndGet();
                            byte[] buf = new byte[4096];
                            while (in.isReady()) {
                                int n = in.read(buf);
                                if (n < 0) {
                                    return;
                                }
                                body.write(buf, 0, n);
                                received.addAndGet(n);
                            }
                        }

                        @Override
                        public void onAllDataRead() throws IOException {
                            writeAll(ac, resp.getOutputStream(), body.toByteArray());
                        }

                        @Override
                        public void onError(Throwable t) {
                            ac.complete();
                        }
                    });
                }
            });
            echo.addMapping("/echo");
            echo.setAsyncSupported(true);
            var produce = ctx.addServlet("produce", new HttpServlet() {
                @Override
                protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                    AsyncContext ac = req.startAsync();
                    ServletOutputStream out = resp.getOutputStream();
                    Semaphore writable = new Semaphore(0);
                    out.setWriteListener(new WriteListener() {
                        @Override
                        public void onWritePossible() {
                            writable.release();
                        }

                        @Override
                        public void onError(Throwable t) {
                            ac.complete();
                        }
                    });
                    // the application's own thread writes, waiting for onWritePossible whenever isReady says no
                    Thread.ofVirtual().start(() -> {
                        try {
                            writable.acquire();
                            byte[] chunk = new byte[16 * 1024];
                            Arrays.fill(chunk, (byte) 'w');
                            for (int i = 0; i < 128; i++) {
                                while (!out.isReady()) {
                                    writable.acquire();
                                }
                                out.write(chunk);
                            }
                            while (!out.isReady()) {
                                writable.acquire();
                            }
                            ac.complete();
                        } catch (InterruptedException | IOException e) {
                            ac.complete();
                        }
                    });
                }
            });
            produce.addMapping("/produce");
            produce.setAsyncSupported(true);
            ctx.addServlet("blocking", new HttpServlet() {
                @Override
                protected void doGet(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                    try {
                        req.getInputStream().setReadListener(null);
                    } catch (NullPointerException | IllegalStateException e) {
                        resp.getWriter().print(e.getClass().getSimpleName());
                    }
                }
            }).addMapping("/blocking");
        }));
    }

    /** Writes {@code data} from onWritePossible while isReady allows, then completes. */
    static void writeAll(AsyncContext ac, ServletOutputStream out, byte[] data) {
        int[] pos = {0};
        out.setWriteListener(new WriteListener() {
            @Override
            public void onWritePossible() throws IOException {
                while (out.isReady()) {
                    if (pos[0] == data.length) {
                        ac.complete();
                        return;
                    }
                    int n = Math.min(8192, data.length - pos[0]);
                    out.write(data, pos[0], n);
                    pos[0] += n;
                }
            }

            @Override
            public void onError(Throwable t) {
                ac.complete();
            }
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void aLargeBodyIsReadAndEchoedThroughTheListeners() throws Exception {
        byte[] data = new byte[1_500_000];
        new java.util.Random(7).nextBytes(data);
        Path file = Files.createTempFile("upload", ".bin");
        Files.write(file, data);
        Path out = Files.createTempFile("echo", ".bin");
        Curl.ok("--data-binary", "@" + file, "-H", "Content-Type: application/octet-stream", "-o", out.toString(),
                "http://127.0.0.1:" + server.port() + "/echo");
        assertArrayEquals(data, Files.readAllBytes(out));
    }

    @Test
    void onDataAvailableIsCalledAgainWhenMoreDataArrivesAfterIsReadyWasFalse() throws Exception {
        received.set(0);
        dataAvailableCalls.set(0);
        // the JDK client and curl both gather a streamed body before sending it: chunks are written by hand here
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    + "c\r\nfirst part, \r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            Await.until("the server to read the first part", () -> received.get() == 12);
            int callsSoFar = dataAvailableCalls.get();
            out.write("b\r\nsecond part\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(response.endsWith("first part, second part"), response);
            assertTrue(dataAvailableCalls.get() > callsSoFar, "onDataAvailable again for the second part");
        }
    }

    @Test
    void writesFromAnApplicationThreadWaitForOnWritePossible() throws Exception {
        HttpResponse<byte[]> r = Http.client().send(Http.request(server.uri("/produce")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertEquals(128 * 16 * 1024, r.body().length);
        assertEquals('w', r.body()[r.body().length - 1]);
    }

    @Test
    void listenersRequireAsyncMode() throws Exception {
        assertEquals("NullPointerException", Http.get(server.uri("/blocking")).body());
    }
}
