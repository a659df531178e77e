package dev.weft.spring.boot;

import com.sun.net.httpserver.HttpsConfigurator;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.testing.TestCertificates;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** What the tests of additional listeners share: a TLS listener on any free loopback port, and clients. */
public final class AdditionalListeners {

    private AdditionalListeners() {
    }

    /** A TLS listener on a free loopback port with the test server certificate. */
    public static Listener httpsOnAnyPort() {
        return Listener.https(new InetSocketAddress("127.0.0.1", 0),
                new HttpsConfigurator(TestCertificates.get().serverContext()));
    }

    /** GET {@code uri} with a JDK client trusting the test certificates; the body. */
    public static String get(String uri) throws Exception {
        try (HttpClient client = HttpClient.newBuilder().sslContext(TestCertificates.get().clientContext())
                .connectTimeout(Duration.ofSeconds(10)).build()) {
            return client.send(HttpRequest.newBuilder(URI.create(uri)).build(), HttpResponse.BodyHandlers.ofString())
                    .body();
        }
    }

    /** curl with {@code args}; its output as text (the test fails if curl does). */
    public static String curl(String... args) throws Exception {
        return new String(Curl.ok(args), StandardCharsets.UTF_8);
    }

    /** Gives the application's Weft server an {@link #httpsOnAnyPort()} listener. */
    @Configuration(proxyBeanMethods = false)
    public static class HttpsListener {

        @Bean
        WebServerFactoryCustomizer<ConfigurableWeftWebServerFactory> httpsListener() {
            return factory -> factory.addAdditionalListeners(httpsOnAnyPort());
        }
    }
}
