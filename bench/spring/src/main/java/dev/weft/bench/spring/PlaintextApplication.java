package dev.weft.bench.spring;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * The WebFlux "plaintext" app of {@code bench/run-spring.sh}, which also serves a CPU-bound JSON
 * endpoint, {@code GET /api/report} ({@link ReportController}), for latency benchmarks under real
 * application load.
 *
 * <p>The same source is compiled by {@code bench/spring/weft}, {@code bench/spring/netty} and
 * {@code bench/spring/jetty}; only the embedded server on the class path differs. Once the server
 * listens, the app prints one line {@code ready <web server class> <port>} on stdout so the harness
 * can check that the intended server is the one being measured.
 */
@SpringBootApplication
public class PlaintextApplication {

    /** Starts the app; {@code --server.port=PORT} picks the port. */
    public static void main(String[] args) {
        SpringApplication.run(PlaintextApplication.class, args);
    }

    /** Prints the ready line (the app logs at WARN only, so Boot's own "started on port" is silent). */
    @Bean
    ApplicationListener<WebServerInitializedEvent> readyLine() {
        return event -> {
            System.out.println("ready " + event.getWebServer().getClass().getName() + " "
                    + event.getWebServer().getPort());
            System.out.flush();
        };
    }

    /** The plaintext endpoint, the one bench/run-spring.sh measures. */
    @RestController
    static class PlaintextController {

        private static final String BODY = "Hello, World!";

        @GetMapping(path = "/plaintext", produces = MediaType.TEXT_PLAIN_VALUE)
        Mono<String> plaintext() {
            return Mono.just(BODY);
        }
    }
}
