package dev.weft.spring.boot.servlet.mvc;

import jakarta.servlet.Filter;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.security.Principal;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A Spring MVC application for the tests of Weft's servlet server: a JSON API, a forward and an include, a
 * {@code DeferredResult} that times out, a server-sent-events stream, uploads, a failing controller and a
 * failing filter, a slow request for graceful shutdown, and Spring Security form login in front of
 * {@code /secure/**}.
 */
@SpringBootApplication
public class MvcTestApplication {

    /** Runs the application (for trying it by hand). */
    public static void main(String[] args) {
        SpringApplication.run(MvcTestApplication.class, args);
    }

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(a -> a.requestMatchers("/secure/**").authenticated().anyRequest().permitAll())
                .formLogin(Customizer.withDefaults())
                .csrf(csrf -> csrf.ignoringRequestMatchers("/api/**", "/upload", "/form"));
        return http.build();
    }

    /** A filter that fails for {@code /filter-failure}. */
    @Bean
    FilterRegistrationBean<Filter> failingFilter() {
        FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>((request, response, chain) -> {
            throw new ServletException("the filter failed");
        });
        registration.addUrlPatterns("/filter-failure");
        return registration;
    }

    @Bean
    Gate gate() {
        return new Gate();
    }

    /** Holds {@code /slow} until the test opens it. */
    public static final class Gate {
        public final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch open = new CountDownLatch(1);

        public void open() {
            open.countDown();
        }

        void pass() throws InterruptedException {
            entered.countDown();
            if (!open.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the gate was never opened");
            }
        }
    }

    record Greeting(String message, int length) {
    }

    @RestController
    static class Endpoints {

        private final Gate gate;

        Endpoints(Gate gate) {
            this.gate = gate;
        }

        @GetMapping(path = "/hello", produces = MediaType.TEXT_PLAIN_VALUE)
        String hello() {
            return "Hello World";
        }

        /** What the servlet request says of the origin: remote address, scheme, secure, request URL. */
        @GetMapping(path = "/origin", produces = MediaType.TEXT_PLAIN_VALUE)
        String origin(HttpServletRequest request) {
            return request.getRemoteAddr() + " " + request.getScheme() + " " + request.isSecure() + " "
                    + request.getRequestURL();
        }

        @GetMapping("/api/greeting")
        Greeting greeting(@RequestParam(defaultValue = "world") String name) {
            String message = "hello " + name;
            return new Greeting(message, message.length());
        }

        @PostMapping("/form")
        Map<String, Object> form(HttpServletRequest request) {
            return Map.of("parameters", request.getParameterMap().size(), "name",
                    String.valueOf(request.getParameter("name")));
        }

        @GetMapping("/forward")
        void forward(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
            request.getRequestDispatcher("/api/greeting?name=forwarded").forward(request, response);
        }

        @GetMapping(path = "/include", produces = MediaType.TEXT_PLAIN_VALUE)
        void include(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
            // The included handler writes with getOutputStream (a message converter), so this one does too.
            response.setContentType("text/plain");
            response.getOutputStream().print("[");
            RequestDispatcher dispatcher = request.getRequestDispatcher("/hello");
            dispatcher.include(request, response);
            response.getOutputStream().print("]");
        }

        @GetMapping("/deferred")
        DeferredResult<String> deferred() {
            return new DeferredResult<>(100L);
        }

        @GetMapping("/events")
        SseEmitter events() {
            SseEmitter emitter = new SseEmitter(30_000L);
            Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 1; i <= 3; i++) {
                        emitter.send(SseEmitter.event().name("tick").data("event " + i));
                    }
                    emitter.complete();
                } catch (IOException e) {
                    emitter.completeWithError(e);
                }
            });
            return emitter;
        }

        /** Endless server-sent events: a tick every 10 ms until the client, or a stop, ends the stream. */
        @GetMapping("/ticks")
        SseEmitter ticks() {
            SseEmitter emitter = new SseEmitter(0L); // no timeout
            Thread.ofVirtual().start(() -> {
                try {
                    for (long i = 0; ; i++) {
                        emitter.send(SseEmitter.event().data("tick " + i));
                        Thread.sleep(10); // a pace: a slow producer
                    }
                } catch (IOException | IllegalStateException e) {
                    emitter.completeWithError(e); // the client went away, or the server stopped
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            return emitter;
        }

        @PostMapping("/upload")
        Map<String, Object> upload(@RequestParam("file") MultipartFile file) throws IOException {
            return Map.of("name", String.valueOf(file.getOriginalFilename()), "size", file.getBytes().length);
        }

        @GetMapping("/failure")
        String failure() {
            throw new IllegalStateException("the controller failed");
        }

        @GetMapping(path = "/slow", produces = MediaType.TEXT_PLAIN_VALUE)
        String slow() throws InterruptedException {
            gate.pass();
            return "slow done";
        }

        @GetMapping(path = "/secure/whoami", produces = MediaType.TEXT_PLAIN_VALUE)
        String whoami(Principal principal) {
            return principal.getName();
        }
    }
}
