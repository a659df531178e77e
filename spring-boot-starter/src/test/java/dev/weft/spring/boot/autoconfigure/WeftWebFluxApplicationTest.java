package dev.weft.spring.boot.autoconfigure;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.Weft;
import dev.weft.spring.boot.WeftWebServer;
import dev.weft.spring.boot.AccessLogProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import dev.weft.spring.boot.servlet.WeftServletWebServerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.reactive.context.ReactiveWebServerApplicationContext;
import org.springframework.util.ClassUtils;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** A WebFlux application on Weft, with reactor-netty on the class path, over its real random port. */
@SpringBootTest(classes = WeftTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "server.server-header=Weft-Test",
        "server.max-http-request-header-size=12KB",
        "server.compression.enabled=true",
        "weft.server.max-connections=123",
        "weft.server.idle-timeout=7s",
        "weft.server.header-read-timeout=3s",
        "weft.server.body-read-timeout=4s",
        "weft.server.write-timeout=5s",
        "weft.server.tls-handshake-timeout=6s",
        "weft.server.max-request-body-size=2MB",
        "weft.server.max-header-count=42",
        "weft.server.max-request-line-length=4KB",
        "weft.server.backlog=77",
        "weft.server.access-log.enabled=true",
        "weft.server.access-log.file=" + WeftWebFluxApplicationTest.ACCESS_LOG,
        "weft.server.access-log.flush-interval=50ms",
        "weft.server.stats-page.enabled=true",
        "weft.server.stats-page.path=/_weft" })
@Timeout(60)
class WeftWebFluxApplicationTest {

    /** The access log file, relative to the module's directory. */
    static final String ACCESS_LOG = "target/weft-webflux-access-log/access.log";

    @LocalServerPort
    int port;

    @Autowired
    ReactiveWebServerApplicationContext context;

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @Test
    void webServerIsWeftEvenWithReactorNettyOnTheClassPath() {
        assertThat(ClassUtils.isPresent("reactor.netty.http.server.HttpServer", null)).isTrue();
        WebServer webServer = context.getWebServer();
        assertThat(webServer).isInstanceOf(WeftWebServer.class);
        assertThat(webServer.getPort()).isEqualTo(port).isPositive();
        assertThat(((WeftWebServer) webServer).getServer()).matches(Weft::isWeft, "a Weft server");
    }

    /** The starter brings the servlet container (and the Servlet API): WebFlux applications stay reactive. */
    @Test
    void aWebFluxApplicationStaysReactiveWithTheServletContainerOnTheClassPath() {
        assertThat(ClassUtils.isPresent("jakarta.servlet.Servlet", null)).isTrue();
        assertThat(ClassUtils.isPresent("dev.weft.servlet.ServletContainer", null)).isTrue();

        assertThat(WebApplicationType.deduce()).isEqualTo(WebApplicationType.REACTIVE);
        assertThat(context.getWebServer().getClass()).isEqualTo(WeftWebServer.class);
        assertThat(context.getBeanNamesForType(WeftServletWebServerFactory.class)).isEmpty();
    }

    @Test
    void servesJsonOverTheRealPort() throws Exception {
        HttpResponse<String> response = get("/greeting?name=Weft");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/json"));
        assertThat(response.body()).isEqualTo("{\"message\":\"Hello, Weft\"}");
    }

    @Test
    void serverHeaderPropertyReplacesTheEngineDefault() throws Exception {
        assertThat(get("/greeting").headers().firstValue("Server")).hasValue("Weft-Test");
    }

    @Test
    void weftServerPropertiesReachTheEngine() {
        ServerConfig config = Weft.config(((WeftWebServer) context.getWebServer()).getServer());

        assertThat(config.maxConnections()).isEqualTo(123);
        assertThat(config.idleTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(config.headerReadTimeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(config.bodyReadTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(config.writeTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(config.tlsHandshakeTimeout()).isEqualTo(Duration.ofSeconds(6));
        assertThat(config.maxRequestBodySize()).isEqualTo(2L * 1024 * 1024);
        assertThat(config.maxHeaderCount()).isEqualTo(42);
        assertThat(config.maxRequestLineLength()).isEqualTo(4 * 1024);
        assertThat(config.maxHeaderSize()).isEqualTo(12 * 1024);
        assertThat(config.backlog()).isEqualTo(77);
        assertThat(config.accessLog().enabled()).isTrue();
        assertThat(config.statsPath()).isEqualTo("/_weft");
        assertThat(config.serverHeader()).isEqualTo("Weft-Test");
    }

    @Test
    void statsPageIsAnsweredByTheEngineWhenEnabled() throws Exception {
        HttpResponse<String> response = get("/_weft?format=json");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"requests\"");
    }

    @Test
    void compressionSettingsReachTheAdapter() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/large"))
                .header("Accept-Encoding", "gzip")
                .timeout(Duration.ofSeconds(10))
                .build();
        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(gunzip(response.body())).isEqualTo(WeftTestApplication.LARGE_TEXT);
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private static String gunzip(byte[] body) throws IOException {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void accessLogPropertiesWriteEachExchangeToTheFile() throws Exception {
        AccessLogProbe.at(ACCESS_LOG).requestAndAwaitLine(port, "weft-webflux-test");
    }
}
