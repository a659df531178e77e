package dev.weft.demo.engine;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.config.SystemPropertyConfig;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A small server written only against {@code com.sun.net.httpserver}, run on Weft: a page to open in a
 * browser, a greeting, an echo of request bodies, a streamed response and the statistics page.
 */
public final class EngineDemo {

    private EngineDemo() {
    }

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        ServerConfig config = SystemPropertyConfig.fromSystemProperties().toBuilder().statsPath("/__stats").build();
        HttpServer server = Weft.createHttpServer(new InetSocketAddress(port), 0, config);
        server.createContext("/", EngineDemo::index);
        server.createContext("/hello", ex -> text(ex, 200, "Hello from Weft over " + ex.getProtocol() + "\n"));
        server.createContext("/echo", EngineDemo::echo);
        server.createContext("/stream", EngineDemo::stream);
        server.start();
        System.out.println("Weft engine demo on http://localhost:" + server.getAddress().getPort() + "/");
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(2)));
    }

    private static void index(HttpExchange ex) throws IOException {
        if (!ex.getRequestURI().getPath().equals("/")) {
            text(ex, 404, "Not found: " + ex.getRequestURI().getPath() + "\n");
            return;
        }
        String page = """
                <!doctype html>
                <html lang="en"><head><meta charset="utf-8"><title>Weft engine demo</title>
                <style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;line-height:1.5}
                pre{background:#f4f4f4;padding:1rem;overflow:auto}</style></head>
                <body><h1>Weft engine demo</h1>
                <p>This page is served by Weft through the plain JDK <code>com.sun.net.httpserver</code> API.</p>
                <ul>
                <li><a href="/hello">/hello</a>: a greeting</li>
                <li><code>curl --data-binary @file http://localhost:PORT/echo</code>: echoes the body (chunked)</li>
                <li><a href="/stream">/stream</a>: five lines, one every 200 ms</li>
                <li><a href="/__stats">/__stats</a>: server statistics (<a href="/__stats?format=json">JSON</a>)</li>
                </ul>
                <h2>Live statistics</h2><pre id="stats">loading…</pre>
                <script>
                async function refresh() {
                  const r = await fetch('/__stats');
                  document.getElementById('stats').textContent = await r.text();
                }
                refresh(); setInterval(refresh, 1000);
                </script></body></html>
                """.replace("PORT", String.valueOf(ex.getLocalAddress().getPort()));
        byte[] body = page.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        ex.sendResponseHeaders(200, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }

    private static void echo(HttpExchange ex) throws IOException {
        String type = ex.getRequestHeaders().getFirst("Content-Type");
        ex.getResponseHeaders().set("Content-Type", type == null ? "application/octet-stream" : type);
        ex.sendResponseHeaders(200, 0);
        try (InputStream in = ex.getRequestBody(); OutputStream out = ex.getResponseBody()) {
            in.transferTo(out);
        }
    }

    private static void stream(HttpExchange ex) throws IOException {
        ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        ex.sendResponseHeaders(200, 0);
        try (OutputStream out = ex.getResponseBody()) {
            for (int i = 1; i <= 5; i++) {
                out.write(("line " + i + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private static void text(HttpExchange ex, int status, String s) throws IOException {
        byte[] body = s.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        ex.sendResponseHeaders(status, body.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(body);
        }
    }
}
