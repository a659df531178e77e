package dev.weft.bench.mvc;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The Spring MVC "plaintext" and "json" app of {@code bench/run-mvc.sh}.
 *
 * <p>The same source is compiled by {@code bench/mvc/weft}, {@code bench/mvc/tomcat} and
 * {@code bench/mvc/jetty}; only the embedded servlet container on the class path differs. Once the
 * server listens, the app prints one line {@code ready <web server class> <port>} on stdout so the
 * harness can check that the intended server is the one being measured.
 */
@SpringBootApplication
public class MvcBenchApplication {

    /** Starts the app; {@code --server.port=PORT} picks the port. */
    public static void main(String[] args) {
        SpringApplication.run(MvcBenchApplication.class, args);
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

    /** The two endpoints: a fixed text, and a small object serialized to JSON on each request. */
    @RestController
    static class BenchController {

        private static final String BODY = "Hello, World!";

        @GetMapping(path = "/plaintext", produces = MediaType.TEXT_PLAIN_VALUE)
        String plaintext() {
            return BODY;
        }

        @GetMapping(path = "/json", produces = MediaType.APPLICATION_JSON_VALUE)
        Message json() {
            return new Message(BODY);
        }
    }

    /** The JSON body: {@code {"message":"Hello, World!"}}. */
    record Message(String message) {
    }
}
