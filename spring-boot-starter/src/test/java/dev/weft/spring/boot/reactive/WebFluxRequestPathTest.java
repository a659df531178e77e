package dev.weft.spring.boot.reactive;

import dev.weft.spring.boot.Curl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Over a raw socket, a WebFlux application on Weft sees the request path exactly as sent, as the engine does
 * and as Reactor Netty reports it: {@code //evil.example/actuator/health} is not Actuator's health endpoint,
 * {@code GET //} is no failure, and the paths the engine refuses never reach the application.
 */
@SpringBootTest(classes = PathTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "server.http2.enabled=true")
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WebFluxRequestPathTest {

    @LocalServerPort
    int port;

    @Test
    void doubleSlashBeforeActuatorIsNotActuatorAndIsReportedAsSent() throws IOException {
        String response = RawHttp.get(port, "//evil.example/actuator/health");

        assertThat(RawHttp.status(response)).as(response).isEqualTo(404);
        assertThat(RawHttp.body(response)).contains("\"path\":\"//evil.example/actuator/health\"")
                .doesNotContain("UP");
        String health = RawHttp.get(port, "/actuator/health");
        assertThat(RawHttp.status(health)).as("the sentinel: Actuator itself answers").isEqualTo(200);
        assertThat(RawHttp.body(health)).contains("\"status\":\"UP\"");
    }

    @Test
    void doubleSlashBeforeActuatorIsNotActuatorOverHttp2() throws Exception {
        Curl.Result result = Curl.run("--http2-prior-knowledge", "--path-as-is", "-w", "\n%{http_version} %{http_code}",
                "http://127.0.0.1:" + port + "//evil.example/actuator/health");

        assertThat(result.text()).contains("\"path\":\"//evil.example/actuator/health\"").endsWith("\n2 404");
    }

    @Test
    void bareDoubleSlashIsThePathDoubleSlash() throws IOException {
        String response = RawHttp.get(port, "//", PathTestApplication.REPORT + ": 1");

        assertThat(RawHttp.status(response)).as(response).isEqualTo(200);
        assertThat(RawHttp.body(response)).isEqualTo("webflux=// uri=// engine=//");
        assertThat(RawHttp.status(RawHttp.get(port, "//"))).as("no route for //").isEqualTo(404);
    }

    @ParameterizedTest
    @ValueSource(strings = { "//evil.example/actuator/health", "//evil.example/actuator/health?x=1", "///actuator",
            "//actuator/health", "/actuator//health", "//user@evil.example:8080/a", "/%61/%62", "/a%2Fb",
            "/a%5Cb", "/a;p=1/b", "/a/...", "/a/..b", "//:80", "//@" })
    void webFluxItsUriAndTheEngineAgreeOnThePathAsSent(String target) throws IOException {
        String response = RawHttp.get(port, target, PathTestApplication.REPORT + ": 1");

        String path = target.split("\\?", 2)[0];
        assertThat(RawHttp.status(response)).as(response).isEqualTo(200);
        assertThat(RawHttp.body(response)).isEqualTo("webflux=" + path + " uri=" + path + " engine=" + path);
    }

    @ParameterizedTest
    @ValueSource(strings = { "a%zz", "a%", "a%4" })
    void hostWithABrokenEscapeIsAClientErrorNotAFailure(String host) throws IOException {
        String response = RawHttp.exchange(port, "GET //x/actuator/health HTTP/1.1\r\nHost: " + host
                + "\r\nConnection: close\r\n\r\n");

        assertThat(RawHttp.status(response)).as(response).isEqualTo(400);
    }

    @ParameterizedTest
    @ValueSource(strings = { "/a/../actuator/health", "/a/./actuator/health", "/a/%2e%2e/actuator/health",
            "/a/.%2E/actuator/health", "/a/..;/actuator/health", "/a%2F..%2Factuator/health",
            "/a%5C..%5Cactuator/health", "/public/..", "/a\\b" })
    void dotSegmentsAndBackslashesAreRefusedBeforeTheApplication(String target) throws IOException {
        String response = RawHttp.get(port, target, PathTestApplication.REPORT + ": 1");

        assertThat(RawHttp.status(response)).as(response).isEqualTo(400);
        assertThat(response).doesNotContain("webflux=").doesNotContain("UP");
    }
}
