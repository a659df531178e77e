package dev.weft.spring.boot.reactive;

import dev.weft.spring.boot.Nginx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real nginx in front of a WebFlux application on Weft, denying {@code /actuator} and passing everything else
 * on with the request URI as the client sent it (the usual {@code proxy_pass} without a URI). However the
 * denied prefix is spelled, Actuator is not reached: nginx refuses the spellings it reads as {@code /actuator}
 * (decoded, dot-segments removed, slashes merged), and Weft reads the others as the paths they are
 * ({@code //evil.example/actuator/health} is not {@code /actuator/health}) or refuses them.
 */
@SpringBootTest(classes = PathTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class NginxFrontTest {

    @LocalServerPort
    int weftPort;

    private Nginx nginx;

    @BeforeAll
    void startNginx() throws Exception {
        nginx = Nginx.start("""
                location /actuator {
                    deny all;
                }
                location / {
                    proxy_pass http://127.0.0.1:%d;
                }
                """.formatted(weftPort));
    }

    @AfterAll
    void stopNginx() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
    }

    @Test
    void nginxPassesOtherPathsThroughToWeft() throws IOException {
        String page = RawHttp.get(nginx.port(), "/public/page");

        assertThat(RawHttp.status(page)).as(page).isEqualTo(200);
        assertThat(page).endsWith("public /public/page");
    }

    @Test
    void doubleSlashSpellingOfTheDeniedPrefixReachesWeftAsSentAndIsNotActuator() throws IOException {
        String report = RawHttp.get(nginx.port(), "//evil.example/actuator/health",
                PathTestApplication.REPORT + ": 1");
        assertThat(report).as("nginx passed the path on as sent")
                .endsWith("webflux=//evil.example/actuator/health uri=//evil.example/actuator/health"
                        + " engine=//evil.example/actuator/health");

        String response = RawHttp.get(nginx.port(), "//evil.example/actuator/health");
        assertThat(RawHttp.status(response)).as(response).isEqualTo(404);
        assertThat(response).contains("\"path\":\"//evil.example/actuator/health\"").doesNotContain("UP");
    }

    @ParameterizedTest
    @ValueSource(strings = { "/actuator/health", "/%61ctuator/health", "/public/../actuator/health",
            "//actuator/health", "/actuator;x=1/health", "/actuator%2Fhealth", "///actuator/health" })
    void spellingsNginxReadsAsTheDeniedPrefixAreDeniedByNginx(String target) throws IOException {
        String response = RawHttp.get(nginx.port(), target);

        assertThat(RawHttp.status(response)).as(response).isEqualTo(403);
    }

    @ParameterizedTest
    @ValueSource(strings = { "//evil.example/actuator/health", "//evil.example/actuator", "//x//actuator/health",
            "/public/..;/actuator/health", "/public/%2e%2e/actuator/health", "/public/.%2e/actuator/health",
            "/public%2F..%2Factuator/health", "/public%5C..%5Cactuator/health", "/public/%2e/../actuator/health" })
    void noSpellingOfTheDeniedPrefixReachesActuator(String target) throws IOException {
        String response = RawHttp.get(nginx.port(), target);

        assertThat(RawHttp.status(response)).as(response).isIn(400, 403, 404);
        assertThat(response).doesNotContain("\"status\":\"UP\"");
    }
}
