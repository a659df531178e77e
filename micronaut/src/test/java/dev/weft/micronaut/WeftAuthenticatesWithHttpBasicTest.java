package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.micronaut.app.UserDirectory;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.util.Map;

/**
 * micronaut-security's HTTP Basic authentication on Weft: the challenge without credentials, the user's
 * {@code Authentication} bound with them, and {@code @Secured} roles refused with 403.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WeftAuthenticatesWithHttpBasicTest implements TestPropertyProvider {

    @Inject
    EmbeddedServer server;

    @Inject
    @Client("/")
    HttpClient client;

    @Override
    public Map<String, String> getProperties() {
        return SecuredApplication.PROPERTIES;
    }

    @Test
    void withoutCredentialsASecuredRouteIs401WithABasicChallenge() throws Exception {
        try (java.net.http.HttpClient jdk = java.net.http.HttpClient.newHttpClient()) {
            HttpResponse<String> response = jdk.send(java.net.http.HttpRequest.newBuilder(
                    server.getURI().resolve("/secured/me")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(401);
            assertThat(response.headers().allValues("WWW-Authenticate"))
                    .containsExactly("Basic charset=\"UTF-8\", realm=\"weft-sample\"");
        }
    }

    @Test
    void withCredentialsTheRouteAnswersForTheUser() {
        String me = client.toBlocking().retrieve(HttpRequest.GET("/secured/me")
                .basicAuth("alice", UserDirectory.PASSWORD));
        assertThat(me).isEqualTo("alice [USER]");
    }

    @Test
    void aWrongPasswordIs401() {
        assertThatThrownBy(() -> client.toBlocking().retrieve(HttpRequest.GET("/secured/me")
                .basicAuth("alice", "guess")))
                .isInstanceOfSatisfying(HttpClientResponseException.class,
                        ex -> assertThat(ex.getStatus().getCode()).isEqualTo(401));
    }

    @Test
    void aRoleTheUserLacksIs403() {
        assertThatThrownBy(() -> client.toBlocking().retrieve(HttpRequest.GET("/secured/admin")
                .basicAuth("alice", UserDirectory.PASSWORD)))
                .isInstanceOfSatisfying(HttpClientResponseException.class,
                        ex -> assertThat(ex.getStatus().getCode()).isEqualTo(403));
    }

    @Test
    void curlWithTheAdminsCredentialsReachesTheAdminRoute() throws Exception {
        Curl curl = Curl.run("-u", "root:" + UserDirectory.PASSWORD, "-w", "\n%{http_code}",
                server.getURI().resolve("/secured/admin").toString());
        assertThat(curl.output()).isEqualTo("admin area, root\n200");
    }
}
