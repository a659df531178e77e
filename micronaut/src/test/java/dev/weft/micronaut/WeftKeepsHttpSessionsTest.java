package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * micronaut-session on Weft: a session attribute (the sample's cart) is kept across requests through the
 * {@code SESSION} cookie, and after {@code invalidate()} the old cookie no longer finds it and a new session starts.
 */
@MicronautTest
class WeftKeepsHttpSessionsTest {

    @Inject
    EmbeddedServer server;

    private final HttpClient client = HttpClient.newHttpClient();

    @AfterEach
    void closeClient() {
        client.close();
    }

    private HttpResponse<String> send(String method, String path, String sessionCookie)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.getURI().resolve(path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (sessionCookie != null) {
            request.header("Cookie", sessionCookie);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The {@code SESSION=...} pair of the response's {@code Set-Cookie}. */
    private static String sessionCookie(HttpResponse<?> response) {
        return response.headers().allValues("Set-Cookie").stream()
                .filter(value -> value.startsWith("SESSION="))
                .map(value -> value.split(";", 2)[0])
                .findFirst().orElseThrow(() -> new AssertionError("no SESSION cookie in " + response.headers()));
    }

    @Test
    void anAttributeIsKeptAcrossRequestsThroughTheSessionCookie() throws Exception {
        assertThat(send("GET", "/cart", null).body()).isEqualTo("no session");
        HttpResponse<String> first = send("POST", "/cart/apple", null);
        assertThat(first.body()).isEqualTo("apple");
        String cookie = sessionCookie(first);
        assertThat(send("POST", "/cart/pear", cookie).body()).isEqualTo("apple,pear");
        assertThat(send("GET", "/cart", cookie).body()).isEqualTo("apple,pear");
        // another client without the cookie has a session of its own
        assertThat(send("POST", "/cart/fig", null).body()).isEqualTo("fig");
        assertThat(send("GET", "/cart", cookie).body()).isEqualTo("apple,pear");
    }

    @Test
    void afterInvalidationANewSessionStarts() throws Exception {
        String cookie = sessionCookie(send("POST", "/cart/apple", null));
        assertThat(send("POST", "/cart/checkout", cookie).body()).isEqualTo("bought apple");
        assertThat(send("GET", "/cart", cookie).body()).isEqualTo("no session");
        HttpResponse<String> again = send("POST", "/cart/plum", cookie);
        assertThat(again.body()).isEqualTo("plum");
        assertThat(sessionCookie(again)).isNotEqualTo(cookie);
    }
}
