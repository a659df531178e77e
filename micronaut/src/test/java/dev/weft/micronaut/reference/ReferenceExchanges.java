package dev.weft.micronaut.reference;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The requests whose answers Weft must give as Micronaut's Netty server gives them: error bodies, CORS, uploads,
 * server-sent events, filters ({@link #ALL}), and, with micronaut-security on, authentication and authorization
 * ({@link #SECURED}). {@code NettyReferenceRecording} and {@code NettySecuredReferenceRecording} send them to the
 * sample application on Netty and record the answers; {@code WeftAnswersAsNettyDoesTest} and
 * {@code WeftAnswersAsNettyDoesWhenSecuredTest} send them to Weft and compare.
 */
public final class ReferenceExchanges {

    /** Where the Netty execution leaves its recording for the Weft tests. */
    public static final Path RECORDING = Path.of("target", "netty-reference.properties");

    /** Where the Netty execution leaves its recording of the {@link #SECURED} exchanges. */
    public static final Path SECURED_RECORDING = Path.of("target", "netty-reference-secured.properties");

    /** The response header fields compared (the others, such as {@code Date}, legitimately differ). */
    static final List<String> COMPARED_HEADERS = List.of("content-type", "allow", "vary", "x-filtered",
            "access-control-allow-origin", "access-control-allow-methods", "access-control-allow-headers",
            "access-control-allow-credentials", "access-control-expose-headers", "access-control-max-age",
            "x-error-handler", "retry-after", "www-authenticate");

    /** Compared too for file responses (their framing and download header fields are part of the answer). */
    static final List<String> FILE_HEADERS = List.of("content-length", "content-disposition", "last-modified",
            "cache-control");

    static final String BOUNDARY = "weft-boundary-7MA4YWxkTrZu0gW";

    private ReferenceExchanges() {
    }

    /** One request: method, path, header fields (name, value, ...), body. */
    public record Exchange(String name, String method, String path, List<String> headers, byte[] body,
                           List<String> alsoCompared) {
    }

    /** What a server answered, reduced to what must match. */
    public record Answer(int status, Map<String, String> headers, String body) {
    }

    public static final Map<String, Exchange> ALL = exchanges();

    /**
     * The exchanges with the secured application ({@code SecuredApplication.PROPERTIES}: micronaut-security on,
     * HTTP Basic and JWT bearer tokens; users {@code alice} with {@code USER}, {@code root} with {@code ADMIN} too).
     */
    public static final Map<String, Exchange> SECURED = securedExchanges();

    private static Map<String, Exchange> exchanges() {
        Map<String, Exchange> all = new LinkedHashMap<>();
        add(all, "unknownRoute", "GET", "/nowhere", List.of("Accept", "application/json"), null);
        add(all, "malformedJson", "POST", "/sample/echo", List.of("Content-Type", "application/json"),
                "{\"name\": ");
        add(all, "invalidGreeting", "POST", "/sample/echo", List.of("Content-Type", "application/json"),
                "{\"name\":\"\",\"count\":-1}");
        add(all, "bodyOverMaxRequestSize", "POST", "/sample/text", List.of("Content-Type", "text/plain"),
                "x".repeat(20_000));
        add(all, "thrownException", "GET", "/sample/boom", List.of(), null);
        add(all, "httpStatusException", "GET", "/sample/teapot", List.of(), null);
        add(all, "methodNotAllowed", "DELETE", "/sample/hello", List.of(), null);
        add(all, "unsupportedMediaType", "POST", "/sample/text", List.of("Content-Type", "application/xml"),
                "<a/>");
        add(all, "missingQueryValue", "GET", "/sample/bind/7", List.of("X-Token", "t"), null);
        add(all, "unconvertiblePathVariable", "GET", "/sample/bind/seven?q=a",
                List.of("X-Token", "t", "Cookie", "session=s"), null);
        add(all, "corsPreflight", "OPTIONS", "/sample/echo", List.of("Origin", "https://app.example",
                "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type"), null);
        add(all, "corsPreflightFromForeignOrigin", "OPTIONS", "/sample/echo", List.of("Origin",
                "https://elsewhere.example", "Access-Control-Request-Method", "POST"), null);
        add(all, "corsSimpleRequest", "GET", "/sample/json", List.of("Origin", "https://app.example"), null);
        add(all, "upload", "POST", "/sample/upload", List.of("Content-Type",
                "multipart/form-data; boundary=" + BOUNDARY), multipart(3000));
        add(all, "uploadOverMaxFileSize", "POST", "/sample/upload", List.of("Content-Type",
                "multipart/form-data; boundary=" + BOUNDARY), multipart(10_000));
        add(all, "streamingUpload", "POST", "/sample/streaming-upload", List.of("Content-Type",
                "multipart/form-data; boundary=" + BOUNDARY), multipart(5000));
        add(all, "streamingUploadOverMaxFileSize", "POST", "/sample/streaming-upload", List.of("Content-Type",
                "multipart/form-data; boundary=" + BOUNDARY), multipart(12_000));
        add(all, "serverSentEvents", "GET", "/sample/events", List.of("Accept", "text/event-stream"), null);
        add(all, "staticResource", "GET", "/static/hello.txt", List.of(), null);
        add(all, "missingStaticResource", "GET", "/static/absent.txt", List.of(), null);
        add(all, "filterAnswersFirst", "GET", "/sample/hello", List.of("X-Deny", "yes"), null);
        add(all, "filterMarksResponse", "GET", "/sample/hello", List.of(), null);
        add(all, "localErrorHandler", "GET", "/errors/local", List.of(), null);
        add(all, "globalErrorHandler", "GET", "/errors/global", List.of(), null);
        add(all, "exceptionHandlerBean", "GET", "/errors/handled", List.of(), null);
        addFile(all, "systemFileAttachment", "GET", "/files/report", List.of());
        addFile(all, "systemFileAttachmentHead", "HEAD", "/files/report", List.of());
        addFile(all, "systemFileNotModified", "GET", "/files/report",
                List.of("If-Modified-Since", "Sat, 01 Jun 2024 00:00:00 GMT"));
        addFile(all, "streamedFileFromClassPath", "GET", "/files/classpath", List.of());
        addFile(all, "streamedFileFromClassPathHead", "HEAD", "/files/classpath", List.of());
        return all;
    }

    private static Map<String, Exchange> securedExchanges() {
        Map<String, Exchange> all = new LinkedHashMap<>();
        String password = "open sesame";
        add(all, "securedRouteWithoutCredentials", "GET", "/secured/me", List.of(), null);
        add(all, "securedRouteWithWrongPassword", "GET", "/secured/me",
                List.of("Authorization", basic("alice", "guess")), null);
        add(all, "securedRouteForUnknownUser", "GET", "/secured/me",
                List.of("Authorization", basic("mallory", password)), null);
        add(all, "securedRouteWithMalformedBasicCredentials", "GET", "/secured/me",
                List.of("Authorization", "Basic not-base64!"), null);
        add(all, "securedRouteWithCredentials", "GET", "/secured/me",
                List.of("Authorization", basic("alice", password)), null);
        add(all, "roleTheUserLacks", "GET", "/secured/admin", List.of("Authorization", basic("alice", password)),
                null);
        add(all, "roleTheUserHas", "GET", "/secured/admin", List.of("Authorization", basic("root", password)), null);
        add(all, "unannotatedRouteWithoutCredentials", "GET", "/sample/hello", List.of(), null);
        add(all, "unknownRouteWithoutCredentials", "GET", "/nowhere", List.of("Accept", "application/json"), null);
        add(all, "forgedBearerToken", "GET", "/secured/me", List.of("Authorization", "Bearer " + forgedJwt()), null);
        add(all, "loginWithWrongPassword", "POST", "/login", List.of("Content-Type", "application/json"),
                "{\"username\":\"alice\",\"password\":\"guess\"}");
        return all;
    }

    private static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    /** A well-formed HS256 token for {@code alice} whose signature was not made with the application's secret. */
    private static String forgedJwt() {
        Base64.Encoder url = Base64.getUrlEncoder().withoutPadding();
        String header = url.encodeToString("{\"alg\":\"HS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
        String claims = url.encodeToString("{\"sub\":\"alice\",\"roles\":[\"USER\",\"ADMIN\"],\"exp\":4102444800}"
                .getBytes(StandardCharsets.UTF_8));
        return header + "." + claims + "." + url.encodeToString("signed by someone else".getBytes(StandardCharsets.UTF_8));
    }

    private static void add(Map<String, Exchange> all, String name, String method, String path,
                            List<String> headers, Object body) {
        byte[] bytes = body == null ? null
                : body instanceof byte[] b ? b : body.toString().getBytes(StandardCharsets.UTF_8);
        all.put(name, new Exchange(name, method, path, headers, bytes, List.of()));
    }

    private static void addFile(Map<String, Exchange> all, String name, String method, String path,
                                List<String> headers) {
        all.put(name, new Exchange(name, method, path, headers, null, FILE_HEADERS));
    }

    /** A form with a text field {@code note} and a file {@code file} of {@code size} bytes. */
    static byte[] multipart(int size) {
        String head = "--" + BOUNDARY + "\r\n"
                + "Content-Disposition: form-data; name=\"note\"\r\n\r\n"
                + "hello\r\n"
                + "--" + BOUNDARY + "\r\n"
                + "Content-Disposition: form-data; name=\"file\"; filename=\"data.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n";
        String tail = "\r\n--" + BOUNDARY + "--\r\n";
        byte[] h = head.getBytes(StandardCharsets.US_ASCII);
        byte[] t = tail.getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[h.length + size + t.length];
        System.arraycopy(h, 0, all, 0, h.length);
        for (int i = 0; i < size; i++) {
            all[h.length + i] = (byte) ('a' + i % 26);
        }
        System.arraycopy(t, 0, all, h.length + size, t.length);
        return all;
    }

    /** Sends {@code exchange} to the server at {@code base} over HTTP/1.1 and reduces its answer. */
    public static Answer send(HttpClient client, URI base, Exchange exchange) throws IOException,
            InterruptedException {
        HttpRequest.BodyPublisher body = exchange.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofByteArray(exchange.body());
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(exchange.path()))
                .method(exchange.method(), body)
                .timeout(Duration.ofSeconds(30));
        for (int i = 0; i < exchange.headers().size(); i += 2) {
            request.header(exchange.headers().get(i), exchange.headers().get(i + 1));
        }
        HttpResponse<String> response = client.send(request.build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        Map<String, String> headers = new TreeMap<>();
        for (String name : concat(COMPARED_HEADERS, exchange.alsoCompared())) {
            List<String> values = response.headers().allValues(name);
            if (!values.isEmpty()) {
                headers.put(name, String.join(", ", values));
            }
        }
        return new Answer(response.statusCode(), headers, response.body());
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return b.isEmpty() ? a : Stream.concat(a.stream(), b.stream()).toList();
    }

    public static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    static void save(Map<String, Answer> answers, Path file) throws IOException {
        Properties properties = new Properties();
        answers.forEach((name, answer) -> {
            properties.setProperty(name + ".status", String.valueOf(answer.status()));
            properties.setProperty(name + ".body", answer.body());
            answer.headers().forEach((header, value) -> properties.setProperty(name + ".header." + header, value));
        });
        Files.createDirectories(file.getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            properties.store(out, "Micronaut's Netty server answering ReferenceExchanges");
        }
    }

    /** The recorded answers to {@link #ALL}, by exchange name. */
    public static Map<String, Answer> load(Path file) throws IOException {
        return load(ALL, file);
    }

    /** The recorded answers to {@code exchanges}, by exchange name. */
    public static Map<String, Answer> load(Map<String, Exchange> exchanges, Path file) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        }
        Map<String, Answer> answers = new LinkedHashMap<>();
        for (String name : exchanges.keySet()) {
            String status = properties.getProperty(name + ".status");
            if (status == null) {
                continue;
            }
            Map<String, String> headers = new TreeMap<>();
            String prefix = name + ".header.";
            for (String key : properties.stringPropertyNames()) {
                if (key.startsWith(prefix)) {
                    headers.put(key.substring(prefix.length()).toLowerCase(Locale.ROOT), properties.getProperty(key));
                }
            }
            answers.put(name, new Answer(Integer.parseInt(status), headers, properties.getProperty(name + ".body")));
        }
        return answers;
    }
}
