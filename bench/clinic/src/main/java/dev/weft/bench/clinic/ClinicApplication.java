package dev.weft.bench.clinic;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;

/**
 * The clinic sample application: a small Spring MVC application of the usual shape (Thymeleaf pages
 * over Spring Data JPA on an in-memory H2 database, a static stylesheet, a JSON API), used to put
 * real application load on the web server under test. See {@code bench/clinic/README.md}.
 *
 * <p>The same source is compiled by {@code bench/clinic/weft}, {@code bench/clinic/tomcat} and
 * {@code bench/clinic/jetty}; only the embedded servlet container on the class path differs. Once the
 * server listens (the data set is loaded before that, see {@link dev.weft.bench.clinic.system.DataSeeder}),
 * the app prints one line {@code ready <web server class> <port>} on stdout so a harness can check
 * that the intended server is the one being measured.
 */
@SpringBootApplication
public class ClinicApplication {

    /** Starts the app; {@code --server.port=PORT} picks the port. */
    public static void main(String[] args) {
        SpringApplication.run(ClinicApplication.class, args);
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
}
