package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.micronaut.reference.ReferenceExchanges;
import dev.weft.micronaut.reference.ReferenceExchanges.Answer;
import dev.weft.micronaut.server.WeftEmbeddedServer;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.http.HttpClient;
import java.util.Map;

/**
 * With micronaut-security on (HTTP Basic and JWT bearer tokens), Weft answers as Micronaut's Netty server does:
 * the same status, the same {@code WWW-Authenticate} challenge and {@code Content-Type}, the same body byte for
 * byte, for missing, wrong, malformed and forged credentials (401), a role the user lacks (403) and a user who
 * may (200). The Netty answers are recorded by the {@code netty-reference} execution
 * ({@code NettySecuredReferenceRecording}) under the same settings.
 */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class WeftAnswersAsNettyDoesWhenSecuredTest implements TestPropertyProvider {

    private static final String CHALLENGE = "Basic charset=\"UTF-8\", realm=\"weft-sample\"";

    private Map<String, Answer> netty;
    private HttpClient client;

    @Inject
    EmbeddedServer server;

    @Override
    public Map<String, String> getProperties() {
        return SecuredApplication.PROPERTIES;
    }

    @BeforeAll
    void loadNettysAnswers() throws Exception {
        netty = ReferenceExchanges.load(ReferenceExchanges.SECURED, ReferenceExchanges.SECURED_RECORDING);
        client = ReferenceExchanges.client();
    }

    @AfterAll
    void closeClient() {
        client.close();
    }

    @Test
    void withoutCredentialsASecuredRouteIs401WithTheBasicChallenge() throws Exception {
        Answer answer = assertSameAsNetty("securedRouteWithoutCredentials");
        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.headers()).containsEntry("www-authenticate", CHALLENGE)
                .containsEntry("content-type", "application/json");
        assertThat(answer.body()).contains("\"message\":\"Unauthorized\"");
    }

    @Test
    void aWrongPasswordIs401WithTheBasicChallenge() throws Exception {
        Answer answer = assertSameAsNetty("securedRouteWithWrongPassword");
        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.headers()).containsEntry("www-authenticate", CHALLENGE);
    }

    @Test
    void anUnknownUserIs401() throws Exception {
        assertThat(assertSameAsNetty("securedRouteForUnknownUser").status()).isEqualTo(401);
    }

    @Test
    void malformedBasicCredentialsAre401() throws Exception {
        assertThat(assertSameAsNetty("securedRouteWithMalformedBasicCredentials").status()).isEqualTo(401);
    }

    @Test
    void theRightCredentialsAre200WithTheRoutesAnswer() throws Exception {
        Answer answer = assertSameAsNetty("securedRouteWithCredentials");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.headers()).doesNotContainKey("www-authenticate");
        assertThat(answer.body()).isEqualTo("alice [USER]");
    }

    /** Netty sends the challenge with the 403 too (micronaut-security's rejection handler adds it); so does Weft. */
    @Test
    void aRoleTheUserLacksIs403() throws Exception {
        Answer answer = assertSameAsNetty("roleTheUserLacks");
        assertThat(answer.status()).isEqualTo(403);
        assertThat(answer.body()).contains("\"message\":\"Forbidden\"");
    }

    @Test
    void aRoleTheUserHasIs200() throws Exception {
        Answer answer = assertSameAsNetty("roleTheUserHas");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("admin area, root");
    }

    @Test
    void aRouteWithoutSecuredIsDeniedToAnonymousRequests() throws Exception {
        assertThat(assertSameAsNetty("unannotatedRouteWithoutCredentials").status()).isEqualTo(401);
    }

    @Test
    void anUnknownRouteIsDeniedBeforeItIsFoundMissing() throws Exception {
        assertThat(assertSameAsNetty("unknownRouteWithoutCredentials").status()).isEqualTo(401);
    }

    @Test
    void aBearerTokenWithAForgedSignatureIs401() throws Exception {
        assertThat(assertSameAsNetty("forgedBearerToken").status()).isEqualTo(401);
    }

    @Test
    void aLoginWithAWrongPasswordIs401WithoutAChallenge() throws Exception {
        Answer answer = assertSameAsNetty("loginWithWrongPassword");
        assertThat(answer.status()).isEqualTo(401);
        assertThat(answer.headers()).doesNotContainKey("www-authenticate");
        assertThat(answer.body()).contains("Credentials Do Not Match");
    }

    private Answer assertSameAsNetty(String name) throws Exception {
        assertThat(server).isInstanceOf(WeftEmbeddedServer.class);
        Answer expected = netty.get(name);
        assertThat(expected).as("Netty's recorded answer to " + name).isNotNull();
        Answer actual = ReferenceExchanges.send(client, server.getURI(), ReferenceExchanges.SECURED.get(name));
        assertThat(actual.status()).as(name + ": status").isEqualTo(expected.status());
        assertThat(actual.headers()).as(name + ": header fields").isEqualTo(expected.headers());
        assertThat(actual.body()).as(name + ": body").isEqualTo(expected.body());
        return actual;
    }
}
