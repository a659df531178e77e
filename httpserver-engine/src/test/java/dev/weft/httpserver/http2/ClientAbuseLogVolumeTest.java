package dev.weft.httpserver.http2;

import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What clients do wrong costs the log a few lines, however much of it there is: a rapid-reset storm, floods
 * of frames without effect, uploads broken off by a reset and malformed requests, over HTTP/1.1 and HTTP/2,
 * are all counted in the statistics, logged one by one at {@code DEBUG} only, and summarised at {@code INFO} at
 * most once per kind; nothing reaches {@code WARNING}.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ClientAbuseLogVolumeTest {

    private static final int ABORTED_UPLOADS = 100;
    private static final int MALFORMED_REQUESTS = 100;
    private static final int FLOODS = 2;

    @Test
    void resetStormsFloodsAndAbortedUploadsAreCountedButBarelyLogged() throws Exception {
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Logger engine = Logger.getLogger("dev.weft.httpserver");
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.INFO.intValue()
                        && !r.getLoggerName().equals("dev.weft.httpserver.access")) {
                    records.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        engine.addHandler(capture);
        try (Http2TestServers servers = Http2TestServers.start(ServerConfig.defaults(),
                Map.of("/", exchange -> {
                    byte[] body = exchange.getRequestBody().readAllBytes();
                    // An empty body is answered with no body at all (length -1 ends the exchange, as in the JDK).
                    exchange.sendResponseHeaders(200, body.length == 0 ? -1 : body.length);
                    if (body.length > 0) {
                        exchange.getResponseBody().write(body);
                    }
                    exchange.close();
                }))) {
            int port = servers.port(false);

            for (boolean tls : new boolean[] {false, true}) {
                PythonH2.run("h2_rapid_reset.py", tls
                        ? List.of("--port", String.valueOf(servers.port(true)), "--tls", "--count", "5000")
                        : List.of("--port", String.valueOf(port), "--count", "5000"), Duration.ofSeconds(60));
            }
            for (int i = 0; i < FLOODS; i++) {
                PythonH2.run("h2_flood.py", List.of("--port", String.valueOf(port), "--mode",
                        i == 0 ? "empty-data-on-reset-stream" : "window-update-connection"), Duration.ofMinutes(2));
            }
            for (int i = 0; i < ABORTED_UPLOADS; i++) {
                abortUpload(port);
            }
            for (int i = 0; i < MALFORMED_REQUESTS; i++) {
                try (RawHttpClient c = RawHttpClient.connect(port)) {
                    c.send("GET /<script> HTTP/1.1\r\nHost: x\r\n\r\n");
                    assertEquals(400, c.readResponse().status());
                }
            }

            Await.until("every event counted", () -> count(servers, ProtocolError.UNEXPECTED_EOF) >= ABORTED_UPLOADS
                    && count(servers, ProtocolError.HTTP2_FLOOD) >= FLOODS + 2
                    && count(servers, ProtocolError.BAD_REQUEST_TARGET) >= MALFORMED_REQUESTS);
            System.out.println("ClientAbuseLogVolumeTest: counted " + Weft.stats(servers.server(false)).protocolErrors()
                    + " (h2c and HTTP/1.1), " + Weft.stats(servers.server(true)).protocolErrors() + " (TLS); logged at"
                    + " INFO or above: " + records.size() + " lines");
        } finally {
            engine.removeHandler(capture);
        }
        String logged = records.stream().map(r -> r.getLevel() + " " + r.getLoggerName() + ": " + r.getMessage())
                .collect(Collectors.joining("\n"));
        assertTrue(records.stream().noneMatch(r -> r.getLevel().intValue() >= Level.WARNING.intValue()), logged);
        // One summary line per kind and server at most (the test runs well within the summary interval).
        assertTrue(records.size() <= 2 * ProtocolError.values().length, logged);
        assertEquals(records.size(), records.stream()
                .map(r -> r.getMessage().replaceAll(": \\d+ client events? ", " ")).distinct().count(), logged);
    }

    /**
     * A POST whose body is cut off by a TCP reset while the handler reads it: the client waits for the
     * {@code 100 Continue} the server sends on the handler's first read, then resets.
     */
    private static void abortUpload(int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port));
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\nExpect: 100-continue\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] interim = new byte["HTTP/1.1 100 Continue\r\n\r\n".length()];
            new java.io.DataInputStream(s.getInputStream()).readFully(interim);
            assertTrue(new String(interim, StandardCharsets.US_ASCII).startsWith("HTTP/1.1 100 "));
            out.write(new byte[4096]);
            out.flush();
            s.setSoLinger(true, 0);
        }
    }

    private static long count(Http2TestServers servers, ProtocolError kind) {
        return Weft.stats(servers.server(false)).protocolErrors().getOrDefault(kind, 0L)
                + Weft.stats(servers.server(true)).protocolErrors().getOrDefault(kind, 0L);
    }
}
