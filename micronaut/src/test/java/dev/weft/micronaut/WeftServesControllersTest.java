package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.micronaut.app.Greeting;
import dev.weft.micronaut.server.WeftEmbeddedServer;
import io.micronaut.core.type.Argument;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

/** A Micronaut application's controllers served by Weft, called with Micronaut's own HTTP client. */
@MicronautTest
class WeftServesControllersTest {

    private static final Argument<Map<String, Object>> MAP = Argument.mapOf(String.class, Object.class);

    @Inject
    EmbeddedServer server;

    @Inject
    @Client("/")
    HttpClient client;

    @Test
    void theEmbeddedServerIsWeftOnARandomPort() {
        assertThat(server).isInstanceOf(WeftEmbeddedServer.class);
        assertThat(server.getPort()).isPositive().isNotEqualTo(8080);
        assertThat(server.getURI().toString()).startsWith("http://");
    }

    @Test
    void plainTextAndJsonRoutesAnswer() {
        HttpResponse<String> text = client.toBlocking().exchange("/sample/hello", String.class);
        assertThat(text.code()).isEqualTo(200);
        assertThat(text.getContentType()).contains(MediaType.TEXT_PLAIN_TYPE);
        assertThat(text.body()).isEqualTo("Hello from Weft");
        Map<String, Object> json = client.toBlocking().retrieve(HttpRequest.GET("/sample/json"), MAP);
        assertThat(json).containsEntry("message", "Hello, World!");
    }

    @Test
    void aJsonBodyIsBoundAndAnswered() {
        Greeting answer = client.toBlocking().retrieve(HttpRequest.POST("/sample/echo", new Greeting("weft", 41)),
                Greeting.class);
        assertThat(answer).isEqualTo(new Greeting("WEFT", 42));
    }

    @Test
    void aTextBodyAndAFormAreBound() {
        String text = client.toBlocking().retrieve(HttpRequest.POST("/sample/text", "x".repeat(1000))
                .contentType(MediaType.TEXT_PLAIN_TYPE), String.class);
        assertThat(text).isEqualTo("got 1000 bytes");
        HttpRequest<Map<String, String>> post = HttpRequest.POST("/sample/form", Map.of("name", "w", "count", "3"))
                .contentType(MediaType.APPLICATION_FORM_URLENCODED_TYPE);
        Map<String, Object> form = client.toBlocking().retrieve(post, MAP);
        assertThat(form).containsEntry("name", "w").containsEntry("count", 3);
    }

    @Test
    void pathQueryHeaderAndCookieValuesAreBound() {
        Map<String, Object> bound = client.toBlocking().retrieve(HttpRequest.GET("/sample/bind/7?q=search")
                .header("X-Token", "t0k").cookie(Cookie.of("session", "abc")), MAP);
        assertThat(bound).containsEntry("id", 7).containsEntry("q", "search").containsEntry("token", "t0k")
                .containsEntry("session", "abc");
    }

    /** Set-Cookie as Netty's encoder writes it (attribute spelled {@code HTTPOnly}): WeftServerCookieEncoder. */
    @Test
    void aResponseCookieIsSet() {
        HttpResponse<String> response = client.toBlocking().exchange("/sample/cookie", String.class);
        assertThat(response.getHeaders().getAll("Set-Cookie")).containsExactly("flavour=oatmeal; Path=/; HTTPOnly");
    }

    @Test
    void reactiveRoutesAnswer() {
        Greeting mono = client.toBlocking().retrieve("/sample/mono", Greeting.class);
        assertThat(mono).isEqualTo(new Greeting("mono", 1));
        List<Greeting> flux = client.toBlocking().retrieve(HttpRequest.GET("/sample/flux"),
                Argument.listOf(Greeting.class));
        assertThat(flux).extracting(Greeting::count).containsExactly(1, 2, 3);
    }

    @Test
    void routesRunOnVirtualThreadsInlineAndWithExecuteOnBlocking() {
        assertThat(client.toBlocking().retrieve("/sample/inline-thread")).isEqualTo("virtual");
        assertThat(client.toBlocking().retrieve("/sample/thread")).isEqualTo("virtual");
    }

    @Test
    void anUnknownRouteIs404WithMicronautsErrorBody() {
        assertThatThrownBy(() -> client.toBlocking().exchange("/nowhere", String.class))
                .isInstanceOfSatisfying(HttpClientResponseException.class, ex -> {
                    assertThat(ex.getStatus().getCode()).isEqualTo(HttpStatus.NOT_FOUND.getCode());
                    assertThat(body(ex)).contains("Page Not Found");
                });
    }

    @Test
    void aThrownExceptionIs500WithoutAStackTrace() {
        assertThatThrownBy(() -> client.toBlocking().exchange("/sample/boom", String.class))
                .isInstanceOfSatisfying(HttpClientResponseException.class, ex -> {
                    assertThat(ex.getStatus().getCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR.getCode());
                    String body = body(ex);
                    assertThat(body).contains("Internal Server Error").doesNotContain("\tat ")
                            .doesNotContain("IllegalStateException");
                });
    }

    @Test
    void malformedJsonIs400WithMicronautsErrorBody() {
        assertThatThrownBy(() -> client.toBlocking().exchange(HttpRequest.POST("/sample/echo", "{\"name\": ")
                .contentType(MediaType.APPLICATION_JSON_TYPE), String.class))
                .isInstanceOfSatisfying(HttpClientResponseException.class, ex -> {
                    assertThat(ex.getStatus().getCode()).isEqualTo(HttpStatus.BAD_REQUEST.getCode());
                    assertThat(body(ex)).contains("Invalid JSON");
                });
    }

    @Test
    void aValidationErrorIs400NamingTheField() {
        assertThatThrownBy(() -> client.toBlocking().exchange(HttpRequest.POST("/sample/echo",
                new Greeting("", -1)), String.class))
                .isInstanceOfSatisfying(HttpClientResponseException.class, ex -> {
                    assertThat(ex.getStatus().getCode()).isEqualTo(HttpStatus.BAD_REQUEST.getCode());
                    assertThat(body(ex))
                            .contains("greeting.name").contains("greeting.count");
                });
    }

    private static String body(HttpClientResponseException ex) {
        return ex.getResponse().getBody(String.class).orElseThrow();
    }
}
