package dev.weft.httpserver.server;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.SequenceInputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.weft.httpserver.testing.TestServer.respond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** A context's user filters wrap its handler in order, can short-circuit, adapt the request and swap streams. */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class FilterChainTest {

    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static Filter recording(String name, List<String> log) {
        return new Filter() {
            @Override
            public void doFilter(HttpExchange ex, Chain chain) throws IOException {
                log.add(name + ":before");
                chain.doFilter(ex);
                log.add(name + ":after");
            }

            @Override
            public String description() {
                return name;
            }
        };
    }

    private RawHttpClient connect() throws IOException {
        return RawHttpClient.connect(server.getAddress().getPort());
    }

    @Test
    void filtersRunInInsertionOrderAroundTheHandler() throws IOException {
        List<String> log = new CopyOnWriteArrayList<>();
        HttpContext ctx = server.createContext("/f", ex -> {
            log.add("handler");
            respond(ex, 200, "ok");
        });
        ctx.getFilters().add(recording("first", log));
        ctx.getFilters().add(recording("second", log));

        try (RawHttpClient c = connect()) {
            c.send("GET /f HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertEquals("ok", c.readResponse().bodyText());
        }
        // The response leaves when the handler closes it; the filters' after-parts run afterwards.
        Await.until("both filters to finish", () -> log.size() == 5);
        assertEquals(List.of("first:before", "second:before", "handler", "second:after", "first:after"), log);
    }

    @Test
    void beforeHandlerAndAfterHandlerFiltersSeeTheExchange() throws Exception {
        CompletableFuture<Integer> codeAfter = new CompletableFuture<>();
        HttpContext ctx = server.createContext("/ba", ex -> respond(ex, 201,
                String.valueOf(ex.getAttribute("before"))));
        ctx.getFilters().add(Filter.beforeHandler("mark", ex -> ex.setAttribute("before", "marked")));
        ctx.getFilters().add(Filter.afterHandler("code", ex -> codeAfter.complete(ex.getResponseCode())));

        try (RawHttpClient c = connect()) {
            c.send("GET /ba HTTP/1.1\r\nHost: localhost\r\n\r\n");
            RawHttpClient.Response r = c.readResponse();
            assertEquals(201, r.status());
            assertEquals("marked", r.bodyText());
        }
        assertEquals(201, codeAfter.get(5, TimeUnit.SECONDS));
    }

    @Test
    void adaptRequestFilterAddsAHeaderTheHandlerSees() throws IOException {
        HttpContext ctx = server.createContext("/adapt", ex -> respond(ex, 200,
                ex.getRequestHeaders().getFirst("X-Added") + "," + ex.getRequestHeaders().getFirst("X-Original")));
        ctx.getFilters().add(Filter.adaptRequest("add", r -> r.with("X-Added", List.of("yes"))));

        try (RawHttpClient c = connect()) {
            c.send("GET /adapt HTTP/1.1\r\nHost: localhost\r\nX-Original: kept\r\n\r\n");
            assertEquals("yes,kept", c.readResponse().bodyText());
        }
    }

    @Test
    void filterThatDoesNotCallTheChainAnswersAndTheHandlerNeverRuns() throws IOException {
        AtomicBoolean handlerRan = new AtomicBoolean();
        HttpContext ctx = server.createContext("/guarded", ex -> {
            handlerRan.set(true);
            respond(ex, 200, "secret");
        });
        ctx.getFilters().add(new Filter() {
            @Override
            public void doFilter(HttpExchange ex, Chain chain) throws IOException {
                respond(ex, 403, "blocked by filter");
            }

            @Override
            public String description() {
                return "block";
            }
        });

        try (RawHttpClient c = connect()) {
            c.send("GET /guarded HTTP/1.1\r\nHost: localhost\r\n\r\n");
            RawHttpClient.Response r = c.readResponse();
            assertEquals(403, r.status());
            assertEquals("blocked by filter", r.bodyText());
            // the connection is still usable afterwards
            c.send("GET /guarded HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertEquals(403, c.readResponse().status());
        }
        assertFalse(handlerRan.get());
    }

    @Test
    void setStreamsWrapsTheResponseBody() throws IOException {
        HttpContext ctx = server.createContext("/upper", ex -> respond(ex, 200, "hello, world"));
        ctx.getFilters().add(new Filter() {
            @Override
            public void doFilter(HttpExchange ex, Chain chain) throws IOException {
                ex.setStreams(null, new UpperCaseOutputStream(ex.getResponseBody()));
                chain.doFilter(ex);
            }

            @Override
            public String description() {
                return "upper-case";
            }
        });

        try (RawHttpClient c = connect()) {
            c.send("GET /upper HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertEquals("HELLO, WORLD", c.readResponse().bodyText());
        }
    }

    @Test
    void setStreamsReplacesTheRequestBody() throws IOException {
        HttpContext ctx = server.createContext("/prefix", ex -> respond(ex, 200,
                new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
        ctx.getFilters().add(new Filter() {
            @Override
            public void doFilter(HttpExchange ex, Chain chain) throws IOException {
                InputStream prefix = new ByteArrayInputStream("prefix:".getBytes(StandardCharsets.UTF_8));
                ex.setStreams(new SequenceInputStream(prefix, ex.getRequestBody()), null);
                chain.doFilter(ex);
            }

            @Override
            public String description() {
                return "prefix";
            }
        });

        try (RawHttpClient c = connect()) {
            c.send("POST /prefix HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\n\r\nbody");
            assertEquals("prefix:body", c.readResponse().bodyText());
        }
    }

    @Test
    void responseCodeIsMinusOneBeforeAndTheSentCodeAfterSendingHeaders() throws IOException {
        server.createContext("/code", ex -> {
            int before = ex.getResponseCode();
            ex.sendResponseHeaders(202, 0);
            int after = ex.getResponseCode();
            try (OutputStream out = ex.getResponseBody()) {
                out.write((before + "," + after).getBytes(StandardCharsets.UTF_8));
            }
        });

        try (RawHttpClient c = connect()) {
            c.send("GET /code HTTP/1.1\r\nHost: localhost\r\n\r\n");
            RawHttpClient.Response r = c.readResponse();
            assertEquals(202, r.status());
            assertEquals("-1,202", r.bodyText());
        }
    }

    /** ASCII upper-casing pass-through stream. */
    private static final class UpperCaseOutputStream extends FilterOutputStream {
        UpperCaseOutputStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(Character.toUpperCase((char) (b & 0xff)));
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            byte[] copy = new byte[len];
            for (int i = 0; i < len; i++) {
                copy[i] = (byte) Character.toUpperCase((char) (b[off + i] & 0xff));
            }
            out.write(copy);
        }
    }
}
