package dev.weft.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.micronaut.reference.ReferenceExchanges;
import dev.weft.micronaut.reference.ReferenceExchanges.Answer;
import dev.weft.micronaut.server.WeftEmbeddedServer;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.util.Map;

/**
 * Weft answers the sample application's requests as Micronaut's Netty server does: the same status, the same
 * {@code Content-Type}, CORS, {@code Allow}, {@code Vary} and filter header fields, the same body, byte for byte
 * (Micronaut's JSON error bodies included). The Netty answers are recorded by the {@code netty-reference}
 * execution ({@code NettyReferenceRecording}), which runs before this one.
 */
@MicronautTest
class WeftAnswersAsNettyDoesTest {

    private static Map<String, Answer> netty;
    private static HttpClient client;

    @Inject
    EmbeddedServer server;

    @BeforeAll
    static void loadNettysAnswers() throws Exception {
        netty = ReferenceExchanges.load(ReferenceExchanges.RECORDING);
        client = ReferenceExchanges.client();
    }

    @AfterAll
    static void closeClient() {
        client.close();
    }

    @Test
    void anUnknownRouteIs404WithMicronautsErrorBody() throws Exception {
        Answer answer = assertSameAsNetty("unknownRoute");
        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.body()).contains("Page Not Found");
    }

    @Test
    void malformedJsonIs400WithMicronautsErrorBody() throws Exception {
        Answer answer = assertSameAsNetty("malformedJson");
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).contains("Invalid JSON");
    }

    @Test
    void aValidationFailureIs400NamingEachField() throws Exception {
        Answer answer = assertSameAsNetty("invalidGreeting");
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.body()).contains("greeting.name").contains("greeting.count");
    }

    @Test
    void aBodyOverMaxRequestSizeIs413() throws Exception {
        Answer answer = assertSameAsNetty("bodyOverMaxRequestSize");
        assertThat(answer.status()).isEqualTo(413);
    }

    @Test
    void aThrownExceptionIs500WithoutAStackTrace() throws Exception {
        Answer answer = assertSameAsNetty("thrownException");
        assertThat(answer.status()).isEqualTo(500);
        assertThat(answer.body()).contains("Internal Server Error").doesNotContain("\tat ")
                .doesNotContain("IllegalStateException").doesNotContain("SampleController");
    }

    /**
     * A documented difference (docs/micronaut.md): for a status Netty has no name for (418 here), the error body's
     * {@code message} is Micronaut's reason phrase, where Netty's response object supplies its generic
     * "Client Error (418)".
     */
    @Test
    void anHttpStatusExceptionAnswersItsStatusWithMicronautsReasonPhrase() throws Exception {
        Answer expected = netty.get("httpStatusException");
        Answer actual = ReferenceExchanges.send(client, server.getURI(),
                ReferenceExchanges.ALL.get("httpStatusException"));
        assertThat(actual.status()).isEqualTo(expected.status()).isEqualTo(418);
        assertThat(actual.headers()).isEqualTo(expected.headers());
        assertThat(actual.body())
                .isEqualTo(expected.body().replace("\"Client Error (418)\"", "\"I am a teapot\""));
    }

    @Test
    void anUnsupportedMethodIs405WithAllow() throws Exception {
        assertThat(assertSameAsNetty("methodNotAllowed").status()).isEqualTo(405);
    }

    @Test
    void anUnsupportedContentTypeIs415() throws Exception {
        assertThat(assertSameAsNetty("unsupportedMediaType").status()).isEqualTo(415);
    }

    @Test
    void aMissingQueryValueIs400() throws Exception {
        assertThat(assertSameAsNetty("missingQueryValue").status()).isEqualTo(400);
    }

    @Test
    void anUnconvertiblePathVariableIsAnsweredAsOnNetty() throws Exception {
        assertSameAsNetty("unconvertiblePathVariable");
    }

    @Test
    void aCorsPreflightFromAnAllowedOriginIsAnswered() throws Exception {
        Answer answer = assertSameAsNetty("corsPreflight");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.headers()).containsEntry("access-control-allow-origin", "https://app.example");
    }

    @Test
    void aCorsPreflightFromAForeignOriginIsRefused() throws Exception {
        assertThat(assertSameAsNetty("corsPreflightFromForeignOrigin").headers())
                .doesNotContainKey("access-control-allow-origin");
    }

    @Test
    void aCorsRequestGetsTheAllowOriginField() throws Exception {
        assertThat(assertSameAsNetty("corsSimpleRequest").headers())
                .containsEntry("access-control-allow-origin", "https://app.example");
    }

    @Test
    void anUploadIsBoundAsACompletedFileUpload() throws Exception {
        Answer answer = assertSameAsNetty("upload");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("data.bin application/octet-stream 3000 bytes, note hello");
    }

    @Test
    void anUploadOverMaxFileSizeIs413() throws Exception {
        assertThat(assertSameAsNetty("uploadOverMaxFileSize").status()).isEqualTo(413);
    }

    @Test
    void aStreamingFileUploadIsReadAsTheRouteConsumesIt() throws Exception {
        Answer answer = assertSameAsNetty("streamingUpload");
        assertThat(answer.body()).isEqualTo("data.bin streamed 5000 bytes");
    }

    @Test
    void aStreamingFileUploadOverMaxFileSizeIsAnsweredAsOnNetty() throws Exception {
        assertSameAsNetty("streamingUploadOverMaxFileSize");
    }

    @Test
    void serverSentEventsAreWrittenAsOnNetty() throws Exception {
        Answer answer = assertSameAsNetty("serverSentEvents");
        assertThat(answer.headers().get("content-type")).startsWith("text/event-stream");
        assertThat(answer.body()).contains("event: tick").contains("id: 3");
    }

    @Test
    void aStaticResourceIsServedFromTheClassPath() throws Exception {
        Answer answer = assertSameAsNetty("staticResource");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("static text from the class path\n");
    }

    @Test
    void aMissingStaticResourceIs404() throws Exception {
        assertThat(assertSameAsNetty("missingStaticResource").status()).isEqualTo(404);
    }

    @Test
    void aServerFilterCanAnswerBeforeTheRoute() throws Exception {
        Answer answer = assertSameAsNetty("filterAnswersFirst");
        assertThat(answer.status()).isEqualTo(403);
        assertThat(answer.body()).isEqualTo("denied by filter");
    }

    @Test
    void aServerFilterChangesTheResponse() throws Exception {
        assertThat(assertSameAsNetty("filterMarksResponse").headers()).containsEntry("x-filtered", "/sample/hello");
    }

    @Test
    void aControllersOwnErrorMethodAnswersItsException() throws Exception {
        Answer answer = assertSameAsNetty("localErrorHandler");
        assertThat(answer.status()).isEqualTo(409);
        assertThat(answer.headers()).containsEntry("x-error-handler", "local")
                .containsEntry("content-type", "application/json");
        assertThat(answer.body()).isEqualTo("{\"error\":\"out of stock\",\"detail\":\"teapot at /errors/local\"}");
    }

    @Test
    void aGlobalErrorMethodAnswersAnyRoutesException() throws Exception {
        Answer answer = assertSameAsNetty("globalErrorHandler");
        assertThat(answer.status()).isEqualTo(429);
        assertThat(answer.headers()).containsEntry("x-error-handler", "global").containsEntry("retry-after", "60");
        assertThat(answer.body()).isEqualTo("quota of 3 exceeded");
    }

    @Test
    void anExceptionHandlerBeanAnswersItsException() throws Exception {
        Answer answer = assertSameAsNetty("exceptionHandlerBean");
        assertThat(answer.status()).isEqualTo(402);
        assertThat(answer.headers()).containsEntry("x-error-handler", "bean");
        assertThat(answer.body()).isEqualTo("{\"error\":\"payment required\",\"detail\":\"plan gold\"}");
    }

    @Test
    void aSystemFileAttachmentHasItsLengthTypeAndDisposition() throws Exception {
        Answer answer = assertSameAsNetty("systemFileAttachment");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.headers().get("content-disposition")).contains("attachment").contains("monthly.csv");
        assertThat(answer.headers()).containsKey("content-length").containsKey("last-modified");
        assertThat(answer.body()).startsWith("id,name,amount\n1,item-1,7\n");
    }

    /**
     * Micronaut's Netty server answers {@code HEAD} to a file route with the status alone (no {@code Content-Type},
     * {@code Content-Length} or {@code Content-Disposition}); Weft answers the same.
     */
    @Test
    void aHeadRequestForASystemFileIsAnsweredAsOnNetty() throws Exception {
        Answer answer = assertSameAsNetty("systemFileAttachmentHead");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEmpty();
    }

    /** {@code If-Modified-Since} is not applied to a route's {@code SystemFile} on Netty (200 and the file), nor on Weft. */
    @Test
    void aConditionalGetOfASystemFileIsAnsweredAsOnNetty() throws Exception {
        assertThat(assertSameAsNetty("systemFileNotModified").status()).isEqualTo(200);
    }

    @Test
    void aStreamedFileFromTheClassPathIsServedWithItsLength() throws Exception {
        Answer answer = assertSameAsNetty("streamedFileFromClassPath");
        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("static text from the class path\n");
        assertSameAsNetty("streamedFileFromClassPathHead");
    }

    private Answer assertSameAsNetty(String name) throws Exception {
        assertThat(server).isInstanceOf(WeftEmbeddedServer.class);
        Answer expected = netty.get(name);
        assertThat(expected).as("Netty's recorded answer to " + name).isNotNull();
        Answer actual = ReferenceExchanges.send(client, server.getURI(), ReferenceExchanges.ALL.get(name));
        assertThat(actual.status()).as(name + ": status").isEqualTo(expected.status());
        assertThat(actual.headers()).as(name + ": header fields").isEqualTo(expected.headers());
        assertThat(actual.body()).as(name + ": body").isEqualTo(expected.body());
        return actual;
    }
}
