package dev.weft.servlet.spring;

import org.springframework.boot.autoconfigure.web.ErrorProperties;
import org.springframework.boot.webmvc.autoconfigure.error.BasicErrorController;
import org.springframework.boot.webmvc.error.DefaultErrorAttributes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.multipart.MultipartFile;
import org.springframework.web.multipart.support.StandardServletMultipartResolver;
import org.springframework.web.servlet.View;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;
import org.springframework.web.servlet.view.BeanNameViewResolver;
import org.springframework.web.servlet.view.InternalResourceViewResolver;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A Spring MVC application configured programmatically (no Boot auto-configuration; the nested controllers are
 * registered as the configuration's member classes): controllers with every
 * asynchronous return type MVC supports, multipart, a forward, and Boot's {@link BasicErrorController} behind
 * {@code /error} with a whitelabel view for browsers.
 */
@Configuration
@EnableWebMvc
public class MvcApplication {

    /** Released by the SSE test once the client has read the first event. */
    static volatile CountDownLatch sseRelease = new CountDownLatch(1);

    @Bean
    DefaultErrorAttributes errorAttributes() {
        return new DefaultErrorAttributes();
    }

    @Bean
    BasicErrorController basicErrorController(DefaultErrorAttributes errorAttributes) {
        return new BasicErrorController(errorAttributes, new ErrorProperties());
    }

    /** The HTML for browsers, as Boot's whitelabel view renders it (a {@link View} named "error"). */
    @Bean(name = "error")
    View whitelabel() {
        return (model, request, response) -> {
            response.setContentType("text/html;charset=UTF-8");
            response.getWriter().append("<html><body><h1>Whitelabel Error Page</h1><div>status=")
                    .append(String.valueOf(model.get("status"))).append("</div></body></html>");
        };
    }

    @Bean
    BeanNameViewResolver beanNameViewResolver() {
        BeanNameViewResolver r = new BeanNameViewResolver();
        r.setOrder(0);
        return r;
    }

    /** Resolves {@code forward:} view names (with the bean-name resolver present it is not added by default). */
    @Bean
    InternalResourceViewResolver internalResourceViewResolver() {
        return new InternalResourceViewResolver();
    }

    @Bean
    StandardServletMultipartResolver multipartResolver() {
        return new StandardServletMultipartResolver();
    }

    @RestController
    static class Api {

        @GetMapping("/api/greeting")
        Map<String, Object> greeting(@RequestParam(defaultValue = "world") String name) {
            return Map.of("hello", name);
        }

        @GetMapping("/api/items/{id}")
        Map<String, Object> item(@PathVariable String id) {
            return Map.of("id", id);
        }

        @PostMapping("/api/echo")
        Map<String, Object> echo(@RequestBody Map<String, Object> body) {
            Map<String, Object> out = new LinkedHashMap<>(body);
            out.put("echoed", true);
            return out;
        }

        @GetMapping("/api/boom")
        String boom() {
            throw new IllegalStateException("boom internals");
        }

        @GetMapping("/api/deferred")
        DeferredResult<String> deferred() {
            DeferredResult<String> result = new DeferredResult<>();
            Thread.ofVirtual().start(() -> result.setResult("deferred done"));
            return result;
        }

        @GetMapping("/api/deferred-timeout")
        DeferredResult<String> deferredTimeout() {
            return new DeferredResult<>(100L);
        }

        @GetMapping("/api/callable")
        Callable<String> callable() {
            return () -> "callable done";
        }

        @GetMapping(path = "/api/sse", produces = "text/event-stream")
        SseEmitter sse() {
            SseEmitter emitter = new SseEmitter(30_000L);
            Thread.ofVirtual().start(() -> {
                try {
                    emitter.send(SseEmitter.event().name("tick").data("one"));
                    if (!sseRelease.await(20, TimeUnit.SECONDS)) {
                        emitter.completeWithError(new IllegalStateException("the test never released the stream"));
                        return;
                    }
                    emitter.send(SseEmitter.event().name("tick").data("two"));
                    emitter.complete();
                } catch (IOException | InterruptedException e) {
                    emitter.completeWithError(e);
                }
            });
            return emitter;
        }

        @GetMapping("/api/emitter")
        ResponseBodyEmitter emitter() {
            ResponseBodyEmitter emitter = new ResponseBodyEmitter();
            Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; i < 3; i++) {
                        emitter.send("part" + i + ";", org.springframework.http.MediaType.TEXT_PLAIN);
                    }
                    emitter.complete();
                } catch (IOException e) {
                    emitter.completeWithError(e);
                }
            });
            return emitter;
        }

        @GetMapping("/api/stream")
        StreamingResponseBody stream() {
            return out -> {
                byte[] line = "0123456789abcdef\n".getBytes(StandardCharsets.US_ASCII);
                for (int i = 0; i < 10_000; i++) {
                    out.write(line);
                }
            };
        }

        @GetMapping(path = "/api/flux", produces = "text/event-stream")
        Flux<String> flux() {
            return Flux.just("a", "b", "c").delayElements(Duration.ofMillis(5));
        }

        @GetMapping("/api/mono")
        Mono<Map<String, String>> mono() {
            return Mono.just(Map.of("mono", "yes")).delayElement(Duration.ofMillis(5));
        }

        @PostMapping("/api/upload")
        Map<String, Object> upload(@RequestParam("file") MultipartFile file, @RequestParam("title") String title)
                throws IOException {
            return Map.of("name", file.getOriginalFilename(), "size", file.getSize(), "title", title,
                    "first", new String(file.getBytes(), 0, 1, StandardCharsets.US_ASCII));
        }
    }

    @Controller
    static class Pages {

        @GetMapping("/api/forward")
        String forward() {
            return "forward:/api/greeting?name=forwarded";
        }
    }
}
