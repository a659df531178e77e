package dev.weft.demo;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring WebFlux application served by Weft instead of Reactor Netty: JSON endpoints, a server-sent event
 * stream of live server statistics, a streaming upload and a static page at {@code /} that uses them. Run it
 * with {@code mvn -pl demo-app -am spring-boot:run} and open http://localhost:8080/.
 */
@SpringBootApplication
public class DemoApplication {

    /** Starts the demo. */
    public static void main(String[] args) {
        SpringApplication.run(DemoApplication.class, args);
    }
}
