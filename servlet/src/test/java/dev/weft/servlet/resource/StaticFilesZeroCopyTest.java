package dev.weft.servlet.resource;

import dev.weft.httpserver.Weft;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.TestFile;
import dev.weft.servlet.ResponseCompression;
import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.ServletServer;
import dev.weft.servlet.testing.Tls;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The default servlet sends a static file larger than the response buffer as a file region: on cleartext
 * HTTP/1.1 the engine sends it from the file to the socket without copying ({@code bytesSentZeroCopy} grows by
 * its size), and the client gets exactly its bytes with its {@code Content-Length}. A small file, HEAD, gzip,
 * TLS and a filter that wraps the response stream keep the copying path, with the same bytes on the wire.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StaticFilesZeroCopyTest {

    private static final long LARGE_SIZE = 24L * 1024 * 1024 + 3;

    private static Path root;
    private static Path large;
    private static String largeSha256;

    @BeforeAll
    static void files() throws IOException {
        root = Files.createTempDirectory("weft-static-zero-copy");
        TestFile file = TestFile.create(root, "large.bin", LARGE_SIZE, 21);
        large = file.path();
        largeSha256 = file.sha256();
        Files.writeString(root.resolve("small.txt"), "small and buffered\n");
        Files.writeString(root.resolve("text.txt"), "compressible text line\n".repeat(200_000));
    }

    @AfterAll
    static void deleteFiles() throws IOException {
        try (var walk = Files.walk(root)) {
            for (Path p : walk.sorted((x, y) -> y.compareTo(x)).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }


    private static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    private static ServletServer start() throws IOException {
        return ServletServer.start(b -> b.documentRoot(root).registerDefaultServlet(true));
    }

    private static StatsSnapshot stats(ServletServer s) {
        return Weft.stats(s.server());
    }

    private static StatsSnapshot awaitIdle(ServletServer s) {
        return Await.value("the exchanges to end", () -> stats(s), x -> x.exchangesActive() == 0);
    }

    @Test
    void aLargeFileGoesFromTheFileToTheSocketWithoutCopyingAndArrivesIntact() throws Exception {
        try (ServletServer s = start(); HttpClient client = client()) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(s.uri("/large.bin")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());

            assertEquals(200, response.statusCode());
            assertEquals(String.valueOf(LARGE_SIZE), response.headers().firstValue("Content-Length").orElseThrow());
            assertEquals(largeSha256, TestFile.sha256(response.body()));
            Await.value("the file's bytes to be counted as sent without copying", () -> stats(s),
                    x -> x.bytesSentZeroCopy() >= LARGE_SIZE * 99 / 100);
        }
    }

    @Test
    void curlGetsTheFileByteForByte() throws Exception {
        Path out = root.resolve("curl.out");
        try (ServletServer s = start()) {
            Curl c = Curl.ok("-o", out.toString(), "-w", "%{http_code} %{size_download}", s.uri("/large.bin").toString());

            assertEquals("200 " + LARGE_SIZE, c.out());
            assertEquals(largeSha256, TestFile.sha256(out));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    @Test
    void headAndASmallFileAreAnsweredWithoutTransferringAnything() throws Exception {
        try (ServletServer s = start(); HttpClient client = client()) {
            HttpResponse<byte[]> head = client.send(HttpRequest.newBuilder(s.uri("/large.bin"))
                            .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            HttpResponse<String> small = client.send(HttpRequest.newBuilder(s.uri("/small.txt")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertEquals(String.valueOf(LARGE_SIZE), head.headers().firstValue("Content-Length").orElseThrow());
            assertEquals(0, head.body().length);
            assertEquals("small and buffered\n", small.body());
            assertEquals("19", small.headers().firstValue("Content-Length").orElseThrow());
            assertEquals(0, awaitIdle(s).bytesSentZeroCopy(), "a HEAD and a file the buffer holds send no region");
        }
    }

    @Test
    void aGzippedFileIsCopiedIntoTheCompressor() throws Exception {
        Path text = root.resolve("text.txt");
        try (ServletServer s = ServletServer.start(b -> b.documentRoot(root).registerDefaultServlet(true)
                .compression(new ResponseCompression(List.of("text/plain"), 2048, List.of())));
             HttpClient client = client()) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(s.uri("/text.txt"))
                    .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofInputStream());

            assertEquals("gzip", response.headers().firstValue("Content-Encoding").orElseThrow());
            assertEquals(TestFile.sha256(text), TestFile.sha256(new GZIPInputStream(response.body())));
            assertEquals(0, awaitIdle(s).bytesSentZeroCopy());
        }
    }

    @Test
    void overTlsTheFileIsCopiedAndArrivesIntact() throws Exception {
        try (ServletServer s = ServletServer.startTls(b -> b.documentRoot(root).registerDefaultServlet(true));
             HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                     .sslContext(Tls.shared().clientContext()).build()) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(s.uri("/large.bin")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());

            assertEquals(200, response.statusCode());
            assertEquals(largeSha256, TestFile.sha256(response.body()));
            StatsSnapshot after = Await.value("the bytes to be counted", () -> stats(s),
                    x -> x.bytesSent() >= LARGE_SIZE && x.exchangesActive() == 0);
            assertEquals(0, after.bytesSentZeroCopy(), after::toString);
        }
    }

    @Test
    void aFilterThatWrapsTheResponseStreamSeesEveryByte() throws Exception {
        AtomicLong seen = new AtomicLong();
        Filter counting = (request, response, chain) -> chain.doFilter(request,
                new HttpServletResponseWrapper((HttpServletResponse) response) {
                    private ServletOutputStream counted;

                    @Override
                    public ServletOutputStream getOutputStream() throws IOException {
                        ServletOutputStream inner = super.getOutputStream();
                        if (counted == null) {
                            counted = new ServletOutputStream() {
                                @Override
                                public void write(int b) throws IOException {
                                    seen.incrementAndGet();
                                    inner.write(b);
                                }

                                @Override
                                public void write(byte[] b, int off, int len) throws IOException {
                                    seen.addAndGet(len);
                                    inner.write(b, off, len);
                                }

                                @Override
                                public boolean isReady() {
                                    return inner.isReady();
                                }

                                @Override
                                public void setWriteListener(WriteListener listener) {
                                    inner.setWriteListener(listener);
                                }
                            };
                        }
                        return counted;
                    }
                });
        try (ServletServer s = ServletServer.start(b -> b.documentRoot(root).registerDefaultServlet(true)
                .initializer((classes, ctx) -> ctx.addFilter("counting", counting)
                        .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*")));
             HttpClient client = client()) {
            HttpResponse<InputStream> response = client.send(HttpRequest.newBuilder(s.uri("/large.bin")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());

            assertEquals(largeSha256, TestFile.sha256(response.body()));
            assertEquals(LARGE_SIZE, seen.get());
            assertEquals(0, awaitIdle(s).bytesSentZeroCopy());
        }
    }

    @Test
    void aClientThatResetsMidFileIsAClientEventNotAnApplicationError() throws Exception {
        try (ServletServer s = start()) {
            try (Socket socket = new Socket()) {
                socket.setReceiveBufferSize(16 * 1024);
                socket.connect(new InetSocketAddress("127.0.0.1", s.port()), 5000);
                socket.getOutputStream().write("GET /large.bin HTTP/1.1\r\nHost: localhost\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                InputStream in = socket.getInputStream();
                byte[] buf = new byte[64 * 1024];
                for (long total = 0; total < 1024 * 1024; ) {
                    int n = in.read(buf);
                    assertTrue(n > 0, "the response ended early");
                    total += n;
                }
                socket.setSoLinger(true, 0); // close with a reset, as a client that dies does
            }
            StatsSnapshot after = Await.value("the connection to end", () -> stats(s),
                    x -> x.connectionsActive() == 0 && x.exchangesActive() == 0);
            assertEquals(0, after.handlerExceptions(), after::toString);
            assertTrue(after.bytesSentZeroCopy() > 0, after::toString);
        }
    }
}
