package dev.weft.spring.boot.servlet.mvc;

import dev.weft.spring.boot.Curl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Errors and bad input through the servlet layer of an MVC application on Weft: Spring Boot's error pages in
 * JSON and HTML for 404, a failing controller and a failing filter, no stack trace; malformed, oversized and
 * mis-encoded input answered 4xx; multipart limits.
 */
@OnWeft
@ExtendWith(OutputCaptureExtension.class)
class WeftMvcErrorsTest {

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void anUnknownPathIsA404JsonErrorForApiClients() throws Exception {
        HttpResponse<String> response = get("/no-such-thing", "application/json");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        assertThat(response.body()).contains("\"status\":404", "\"path\":\"/no-such-thing\"");
    }

    @Test
    void anUnknownPathIsA404HtmlErrorPageForBrowsers() throws Exception {
        HttpResponse<String> response = get("/no-such-thing", "text/html");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/html"));
        assertThat(response.body()).contains("Whitelabel Error Page", "404");
    }

    @Test
    void aFailingControllerIsA500WithoutStackTraceInJsonAndHtml() throws Exception {
        HttpResponse<String> json = get("/failure", "application/json");
        HttpResponse<String> html = get("/failure", "text/html");

        assertThat(json.statusCode()).isEqualTo(500);
        assertThat(json.body()).contains("\"status\":500", "\"path\":\"/failure\"");
        assertThat(html.statusCode()).isEqualTo(500);
        assertThat(html.body()).contains("Whitelabel Error Page");
        for (String body : new String[] { json.body(), html.body() }) {
            assertThat(body).doesNotContain("IllegalStateException", "the controller failed", "at dev.weft");
        }
    }

    @Test
    void aFailingFilterIsA500ErrorPageWithoutStackTrace() throws Exception {
        HttpResponse<String> response = get("/filter-failure", "application/json");

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).contains("\"status\":500", "\"path\":\"/filter-failure\"")
                .doesNotContain("ServletException", "the filter failed", "at dev.weft");
    }

    @Test
    void malformedPercentEncodingIsA400() throws Exception {
        String response = raw("GET /api/greeting?name=%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        String inPath = raw("GET /api/%E0%A4%A HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

        assertThat(response).startsWith("HTTP/1.1 400").doesNotContain("Exception");
        assertThat(inPath).startsWith("HTTP/1.1 400").doesNotContain("Exception");
    }

    @Test
    void tooManyFormParametersIsA4xxAndLosesNothingElse(CapturedOutput output) throws Exception {
        String form = IntStream.range(0, 20_000).mapToObj(i -> "p" + i + "=v").collect(Collectors.joining("&"));

        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri("/form"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isBetween(400, 499);
        assertThat(response.body()).doesNotContain("Exception", "at dev.weft");
        assertThat(get("/hello", "text/plain").body()).as("the server goes on").isEqualTo("Hello World");
        assertThat(output).as("a client's error is no warning of ours").doesNotContain("RequestInputException");
    }

    /** Spring Boot forces UTF-8 on requests (server.servlet.encoding), so the wrong charset is bytes that are not UTF-8. */
    @Test
    void aFormThatIsNotInItsCharsetIsA4xx() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri("/form"))
                .header("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("name=%C3%28")).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isBetween(400, 499);
        assertThat(response.body()).doesNotContain("Exception", "at dev.weft");
    }

    @Test
    void anUploadWithinTheLimitsIsAccepted() throws Exception {
        Curl.Result result = upload("small.txt", 512);

        assertThat(result.text()).contains("\"name\":\"small.txt\"", "\"size\":512").endsWith("200");
    }

    @Test
    void anUploadOverTheFileSizeLimitIsA413WithoutStackTrace(CapturedOutput output) throws Exception {
        Curl.Result result = upload("big.txt", 1500);

        assertThat(result.text()).endsWith("413").doesNotContain("Exception", "at dev.weft");
        assertThat(output).as("a client's error is no warning of ours").doesNotContain("RequestInputException");
        assertThat(get("/hello", "text/plain").body()).as("the server goes on").isEqualTo("Hello World");
    }

    @Test
    void anUploadOverTheRequestSizeLimitIsA413() throws Exception {
        Curl.Result result = upload("huge.txt", 64 * 1024);

        assertThat(result.text()).endsWith("413");
    }

    private Curl.Result upload(String name, int size) throws IOException, InterruptedException {
        Path file = Files.createTempFile("upload", ".txt");
        try {
            Files.write(file, "x".repeat(size).getBytes(StandardCharsets.US_ASCII));
            return Curl.run("-H", "Accept: application/json", "-F", "file=@" + file + ";filename=" + name,
                    "-w", "\n%{http_code}", url("/upload"));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private String raw(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private HttpResponse<String> get(String path, String accept) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri(path)).header("Accept", accept).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create(url(path));
    }

    private String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }
}
