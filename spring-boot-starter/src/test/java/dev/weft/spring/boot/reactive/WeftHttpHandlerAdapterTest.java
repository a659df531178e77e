package dev.weft.spring.boot.reactive;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** Request and response semantics of the adapter, over a real Weft server. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftHttpHandlerAdapterTest {

    private static final ParameterizedTypeReference<Map<String, Object>> JSON_MAP = new ParameterizedTypeReference<>() {
    };

    @Test
    void jsonPostedIsEchoedAsJsonWithItsLength() throws Exception {
        var routes = RouterFunctions.route().POST("/echo", request -> request.bodyToMono(JSON_MAP)
                .flatMap(body -> ServerResponse.ok().contentType(MediaType.APPLICATION_JSON).bodyValue(body))).build();
        try (AdapterServer server = AdapterServer.start(routes)) {
            String json = "{\"name\":\"weft\",\"count\":3,\"tags\":[\"a\",\"b\"]}";
            HttpResponse<String> response = AdapterServer.client().send(HttpRequest.newBuilder(server.uri("/echo"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
            assertThat(response.body()).isEqualTo(json);
            assertThat(response.headers().firstValueAsLong("Content-Length")).hasValue(json.length());
        }
    }

    @Test
    void uriQueryAndRepeatedHeadersReachTheHandler() throws Exception {
        var routes = RouterFunctions.route().GET("/info", request -> ServerResponse.ok().bodyValue(
                request.uri() + "|" + request.queryParam("y").orElse("?") + "|"
                        + request.headers().header("X-Multi"))).build();
        try (AdapterServer server = AdapterServer.start(routes)) {
            HttpResponse<String> response = AdapterServer.client().send(
                    HttpRequest.newBuilder(server.uri("/info?x=1&y=a%20b"))
                            .header("X-Multi", "one").header("X-Multi", "two").build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.body()).isEqualTo(
                    "http://127.0.0.1:" + server.port() + "/info?x=1&y=a%20b|a b|[one, two]");
        }
    }

    @Test
    void cookiesAreReadFromCookieHeadersAndWrittenAsSetCookie() throws Exception {
        var routes = RouterFunctions.route().GET("/cookies", request -> ServerResponse.ok()
                .cookie(ResponseCookie.from("session", "xyz").path("/").httpOnly(true).build())
                .cookie(ResponseCookie.from("theme", "dark").maxAge(60).build())
                .bodyValue(request.cookies().values().stream().flatMap(list -> list.stream())
                        .map(c -> c.getName() + "=" + c.getValue()).sorted().collect(Collectors.joining(",")))).build();
        try (AdapterServer server = AdapterServer.start(routes)) {
            HttpResponse<String> response = AdapterServer.client().send(HttpRequest.newBuilder(server.uri("/cookies"))
                    .header("Cookie", "a=1; b=2").build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.body()).isEqualTo("a=1,b=2");
            assertThat(response.headers().allValues("Set-Cookie"))
                    .anySatisfy(v -> assertThat(v).startsWith("session=xyz").contains("Path=/").contains("HttpOnly"))
                    .anySatisfy(v -> assertThat(v).startsWith("theme=dark").contains("Max-Age=60"))
                    .hasSize(2);
        }
    }

    @Test
    void headGetsTheHeadersOfGetButNoBody() throws Exception {
        var routes = RouterFunctions.route().route(RequestPredicates.GET("/text").or(RequestPredicates.HEAD("/text")),
                request -> ServerResponse.ok()
                .contentType(MediaType.TEXT_PLAIN).header("X-Kind", "greeting").bodyValue("hello world")).build();
        try (AdapterServer server = AdapterServer.start(routes)) {
            String get = RawHttp.exchange(server.port(), "GET /text HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            String head = RawHttp.exchange(server.port(), "HEAD /text HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");

            assertThat(get).startsWith("HTTP/1.1 200").endsWith("\r\n\r\nhello world");
            assertThat(head).startsWith("HTTP/1.1 200").endsWith("\r\n\r\n");
            for (String field : new String[] {"Content-length: 11", "Content-type: text/plain", "X-kind: greeting"}) {
                assertThat(get).containsIgnoringCase(field);
                assertThat(head).containsIgnoringCase(field);
            }
        }
    }

    @Test
    void handlerThatSetsNoStatusAnswers200() throws Exception {
        AtomicReference<HttpStatusCode> seen = new AtomicReference<>();
        HttpHandler handler = (request, response) -> {
            seen.set(response.getStatusCode());
            return response.writeWith(Mono.just(buffer("ok")));
        };
        try (AdapterServer server = AdapterServer.start(handler)) {
            HttpResponse<String> response = AdapterServer.client().send(
                    HttpRequest.newBuilder(server.uri("/")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("ok");
            assertThat(seen.get()).isEqualTo(HttpStatusCode.valueOf(200));
        }
    }

    @Test
    void completedResponseWithoutBodyHasLengthZeroAnd204HasNone() throws Exception {
        var routes = RouterFunctions.route()
                .GET("/empty", request -> ServerResponse.ok().build())
                .GET("/none", request -> ServerResponse.noContent().build()).build();
        try (AdapterServer server = AdapterServer.start(routes)) {
            String empty = RawHttp.exchange(server.port(), "GET /empty HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            String none = RawHttp.exchange(server.port(), "GET /none HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");

            assertThat(empty).startsWith("HTTP/1.1 200").containsIgnoringCase("Content-length: 0\r\n");
            assertThat(none).startsWith("HTTP/1.1 204").doesNotContainIgnoringCase("Content-length")
                    .doesNotContainIgnoringCase("Transfer-encoding");
        }
    }

    @Test
    void failingHandlerAnswers500() throws Exception {
        HttpHandler failing = (request, response) -> {
            response.getHeaders().set("X-Before-Failure", "yes");
            return Mono.error(new IllegalStateException("boom"));
        };
        HttpHandler throwing = (request, response) -> {
            throw new IllegalStateException("thrown, not signalled");
        };
        var routes = RouterFunctions.route().GET("/fn", request -> Mono.error(new IllegalStateException("fn"))).build();
        for (HttpHandler handler : new HttpHandler[] {failing, throwing, RouterFunctions.toHttpHandler(routes)}) {
            try (AdapterServer server = AdapterServer.start(handler)) {
                HttpResponse<String> response = AdapterServer.client().send(
                        HttpRequest.newBuilder(server.uri("/fn")).build(), HttpResponse.BodyHandlers.ofString());

                assertThat(response.statusCode()).isEqualTo(500);
                assertThat(response.headers().firstValue("X-Before-Failure")).isEmpty();
            }
        }
    }

    @Test
    void failureAfterTheBodyStartedBreaksTheConnectionOffWithoutTheLastChunk() throws Exception {
        HttpHandler handler = (request, response) -> response.writeWith(Flux.concat(
                Mono.just(buffer("partial")), Mono.error(new IllegalStateException("late failure"))));
        try (AdapterServer server = AdapterServer.start(handler)) {
            String raw = RawHttp.exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n");

            assertThat(raw).startsWith("HTTP/1.1 200").containsIgnoringCase("Transfer-encoding: chunked")
                    .contains("partial").doesNotEndWith("0\r\n\r\n");
        }
    }

    @Test
    void remoteAndLocalAddressesAreTheConnectionsEnds() throws Exception {
        var routes = RouterFunctions.route().GET("/addr", request -> ServerResponse.ok().bodyValue(
                request.remoteAddress().orElseThrow() + "|" + request.localAddress().orElseThrow())).build();
        try (AdapterServer server = AdapterServer.start(routes)) {
            String body = AdapterServer.client().send(HttpRequest.newBuilder(server.uri("/addr")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();

            String[] ends = body.split("\\|");
            assertThat(ends[0]).startsWith("/127.0.0.1:").doesNotEndWith(":" + server.port());
            assertThat(ends[1]).isEqualTo("/127.0.0.1:" + server.port());
        }
    }

    @Test
    void requestWithoutHostUsesTheLocalAddressAsAuthority() throws Exception {
        var routes = RouterFunctions.route().GET("/uri", request -> ServerResponse.ok().bodyValue(
                request.uri().toString())).build();
        try (AdapterServer server = AdapterServer.start(routes)) {
            String noHost = RawHttp.exchange(server.port(), "GET /uri?q=1 HTTP/1.0\r\n\r\n");
            // An empty Host names no authority at all: the engine refuses it (RFC 9110 §4.2.1).
            String emptyHost = RawHttp.exchange(server.port(),
                    "GET /uri?q=2 HTTP/1.1\r\nHost:\r\nConnection: close\r\n\r\n");

            assertThat(noHost).endsWith("\r\n\r\nhttp://127.0.0.1:" + server.port() + "/uri?q=1");
            assertThat(emptyHost).startsWith("HTTP/1.1 400 ");
        }
    }

    @Test
    void handlerThatBlocksOnItsOwnRequestBodyDoesNotStallTheExchange() throws Exception {
        HttpHandler blocking = (request, response) -> {
            String body = DataBufferUtils.join(request.getBody())
                    .map(buffer -> buffer.toString(StandardCharsets.UTF_8)).block(Duration.ofSeconds(10));
            return response.writeWith(Mono.just(buffer("got " + body)));
        };
        try (AdapterServer server = AdapterServer.start(blocking)) {
            HttpResponse<String> response = AdapterServer.client().send(HttpRequest.newBuilder(server.uri("/"))
                    .POST(HttpRequest.BodyPublishers.ofString("payload")).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.body()).isEqualTo("got payload");
        }
    }

    static DataBuffer buffer(String text) {
        return DefaultDataBufferFactory.sharedInstance.wrap(text.getBytes(StandardCharsets.UTF_8));
    }
}
