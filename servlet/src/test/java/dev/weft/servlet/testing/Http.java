package dev.weft.servlet.testing;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** The JDK's {@link HttpClient} as the tests use it: HTTP/1.1 unless asked, no redirects followed. */
public final class Http {

    private static final HttpClient HTTP1 = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    private Http() {
    }

    /** The shared HTTP/1.1 client. */
    public static HttpClient client() {
        return HTTP1;
    }

    /** GET {@code uri}, body as text. */
    public static HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build());
    }

    /** Sends {@code request} with the shared client, body as text. */
    public static HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return HTTP1.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** A request builder for {@code uri} with a generous timeout. */
    public static HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
    }
}
