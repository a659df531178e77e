package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.weft.micronaut.app.UserDirectory;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.client.HttpClient;
import io.micronaut.http.client.annotation.Client;
import io.micronaut.http.client.exceptions.HttpClientResponseException;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.security.authentication.UsernamePasswordCredentials;
import io.micronaut.security.token.render.BearerAccessRefreshToken;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpResponse;
import java.util.Map;

/**
 * micronaut-security-jwt on Weft: {@code POST /login} issues a signed access token, which opens the secured
 * routes as {@code Authorization: Bearer}; a token whose signature does not match is refused.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WeftAcceptsJwtBearerTokensTest implements TestPropertyProvider {

    @Inject
    EmbeddedServer server;

    @Inject
    @Client("/")
    HttpClient client;

    @Override
    public Map<String, String> getProperties() {
        return SecuredApplication.PROPERTIES;
    }

    private String login(String user) {
        BearerAccessRefreshToken token = client.toBlocking().retrieve(HttpRequest.POST("/login",
                new UsernamePasswordCredentials(user, UserDirectory.PASSWORD)), BearerAccessRefreshToken.class);
        assertThat(token.getUsername()).isEqualTo(user);
        assertThat(token.getTokenType()).isEqualToIgnoringCase("Bearer");
        return token.getAccessToken();
    }

    @Test
    void aTokenFromLoginOpensTheSecuredRoute() {
        String token = login("alice");
        assertThat(token.split("\\.")).hasSize(3);
        String me = client.toBlocking().retrieve(HttpRequest.GET("/secured/me").bearerAuth(token));
        assertThat(me).isEqualTo("alice [USER]");
    }

    @Test
    void theJdkClientSendingTheAdminsTokenReachesTheAdminRoute() throws Exception {
        String token = login("root");
        try (java.net.http.HttpClient jdk = java.net.http.HttpClient.newHttpClient()) {
            HttpResponse<String> response = jdk.send(java.net.http.HttpRequest.newBuilder(
                            server.getURI().resolve("/secured/admin")).header("Authorization", "Bearer " + token)
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).isEqualTo("admin area, root");
        }
    }

    @Test
    void aTokenWithAForgedSignatureIs401() throws Exception {
        String token = login("alice");
        String forged = token.substring(0, token.lastIndexOf('.') + 1) + "c2lnbmVkIGJ5IHNvbWVvbmUgZWxzZQ";
        Curl curl = Curl.run("-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer " + forged,
                server.getURI().resolve("/secured/me").toString());
        assertThat(curl.output()).isEqualTo("401");
    }

    @Test
    void aLoginWithAWrongPasswordIsRefused() {
        assertThatThrownBy(() -> client.toBlocking().retrieve(HttpRequest.POST("/login",
                new UsernamePasswordCredentials("alice", "guess")), BearerAccessRefreshToken.class))
                .isInstanceOfSatisfying(HttpClientResponseException.class,
                        ex -> assertThat(ex.getStatus().getCode()).isEqualTo(401));
    }
}
