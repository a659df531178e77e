package dev.weft.httpserver.http1;

import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.RawHttpClient.Response;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** {@code Expect: 100-continue}: sent on the handler's first read, never to HTTP/1.0; other expectations 417. */
@Timeout(60)
class ExpectContinueTest {

    private static final Path CURL = Path.of("/usr/bin/curl");
    private static final String HOST = "Host: localhost\r\n";
    private static final int UPLOAD_SIZE = 2000;

    private static final AtomicInteger handled = new AtomicInteger();
    private static TestServer server;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startServer() throws IOException {
        server = TestServer.builder()
                .handle("/echo", exchange -> {
                    handled.incrementAndGet();
                    TestServer.echoHandler().handle(exchange);
                })
                .handle("/no-read", exchange -> {
                    handled.incrementAndGet();
                    TestServer.respond(exchange, 200, "not reading");
                })
                .handle("/hints-then-read", exchange -> {
                    // before its first read, the handler puts a 103 on the wire: a 100 the server sent
                    // without waiting for that read would come before it
                    exchange.getResponseHeaders().set("Link", "</style.css>; rel=preload");
                    exchange.sendResponseHeaders(103, -1);
                    exchange.getResponseHeaders().clear();
                    TestServer.echoHandler().handle(exchange);
                })
                .start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void curlUploadGets100ContinueThenTheFinalResponse() throws Exception {
        CurlResult result = curl("/echo", "-H", "Expect: 100-continue");
        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stderr.contains("< HTTP/1.1 100"), () -> "no 100 Continue:\n" + result);
        assertTrue(result.stderr.contains("< HTTP/1.1 200"), result::toString);
        assertTrue(result.stdout.contains("body-length: " + UPLOAD_SIZE + "\n"), result::toString);
    }

    @Test
    void curlChunkedUploadGets100ContinueThenTheFinalResponse() throws Exception {
        CurlResult result = curl("/echo", "-H", "Expect: 100-continue", "-H", "Transfer-Encoding: chunked");
        assertEquals(0, result.exitCode, result::toString);
        assertTrue(result.stderr.contains("< HTTP/1.1 100"), () -> "no 100 Continue:\n" + result);
        assertTrue(result.stdout.contains("body-length: " + UPLOAD_SIZE + "\n"), result::toString);
    }

    @Test
    void curlUploadToAHandlerThatDoesNotReadGetsNo100() throws Exception {
        CurlResult result = curl("/no-read", "-H", "Expect: 100-continue");
        assertFalse(result.stderr.contains("< HTTP/1.1 100"), () -> "100 sent though the body was never read:\n"
                + result);
        assertTrue(result.stderr.contains("< HTTP/1.1 200"), result::toString);
        assertEquals("not reading", result.stdout, result::toString);
        assertFalse(result.stderr.contains("left intact"), () -> "connection kept alive:\n" + result);
    }

    @Test
    void handlerThatDoesNotReadAnswersWithout100AndTheConnectionIsClosed() throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("POST /no-read HTTP/1.1\r\n" + HOST
                    + "Expect: 100-continue\r\nContent-Length: 1000\r\n\r\n").readResponse();
            assertEquals(200, response.status(), () -> "first response:\n" + response);
            assertEquals("not reading", response.bodyText());
            assertTrue(client.serverClosed(), "connection still open; the unsent body would be read as a request");
        }
    }

    @Test
    void continueIsSentOnlyWhenTheHandlerFirstReads() throws IOException {
        try (RawHttpClient client = server.connect()) {
            client.send("POST /hints-then-read HTTP/1.1\r\n" + HOST
                    + "Expect: 100-continue\r\nContent-Length: 5\r\n\r\n");
            Response hints = client.readResponse();
            assertEquals(103, hints.status(), () -> "the 100 came before the handler read:\n" + hints);
            Response interim = client.readResponse();
            assertEquals(100, interim.status(), interim::toString);
            assertEquals(0, interim.body().length);
            Response response = client.send("hello").readResponse();
            assertEquals(200, response.status(), response::toString);
            assertTrue(response.bodyText().contains("body-length: 5\n"), response::bodyText);
            assertFalse(response.hasConnectionToken("close"), response::toString);
        }
    }

    @Test
    void expectationIsMatchedCaseInsensitively() throws IOException {
        try (RawHttpClient client = server.connect()) {
            client.send("POST /echo HTTP/1.1\r\n" + HOST + "Expect: 100-Continue\r\nContent-Length: 5\r\n\r\n");
            Response interim = client.readResponse();
            assertEquals(100, interim.status(), interim::toString);
            Response response = client.send("hello").readResponse();
            assertTrue(response.bodyText().contains("body-length: 5\n"), response::bodyText);
        }
    }

    @Test
    void continueIsNotSentToHttp10() throws IOException {
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("POST /echo HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n"
                    + "hello").readResponse();
            assertEquals(200, response.status(), () -> "first response to HTTP/1.0:\n" + response);
            assertTrue(response.bodyText().contains("body-length: 5\n"), response::bodyText);
        }
    }

    @Test
    void unknownExpectationIsRejectedWith417() throws IOException {
        int before = handled.get();
        try (RawHttpClient client = server.connect()) {
            Response response = client.send("POST /echo HTTP/1.1\r\n" + HOST + "Expect: foo\r\nContent-Length: 5\r\n\r\n")
                    .readResponse();
            assertEquals(417, response.status(), response::toString);
            assertTrue(response.hasConnectionToken("close"), response::toString);
            assertTrue(client.serverClosed(), "connection still open after 417");
        }
        assertEquals(before, handled.get(), "handler ran despite the failed expectation");
    }

    private CurlResult curl(String path, String... extraArgs) throws Exception {
        assertTrue(Files.isExecutable(CURL), "curl is required at " + CURL + " (scripts/install-test-tools.sh installs it)");
        byte[] upload = new byte[UPLOAD_SIZE];
        Arrays.fill(upload, (byte) 'u');
        Path file = Files.write(tmp.resolve("upload.bin"), upload);
        Path out = tmp.resolve("stdout.txt");
        Path err = tmp.resolve("stderr.txt");
        List<String> command = new ArrayList<>(List.of(CURL.toString(), "-sS", "-v", "--http1.1",
                "--max-time", "30", "--expect100-timeout", "20"));
        command.addAll(List.of(extraArgs));
        command.addAll(List.of("--data-binary", "@" + file, server.uri(path).toString()));
        Process process = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!process.waitFor(40, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("curl did not finish: " + Files.readString(err, StandardCharsets.ISO_8859_1));
        }
        return new CurlResult(process.exitValue(), Files.readString(out, StandardCharsets.ISO_8859_1),
                Files.readString(err, StandardCharsets.ISO_8859_1));
    }

    private record CurlResult(int exitCode, String stdout, String stderr) {
        @Override
        public String toString() {
            return "curl exit " + exitCode + "\n--- stdout\n" + stdout + "\n--- stderr\n" + stderr;
        }
    }
}
