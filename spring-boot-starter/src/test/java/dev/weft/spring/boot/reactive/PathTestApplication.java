package dev.weft.spring.boot.reactive;

import com.sun.net.httpserver.HttpExchange;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * A WebFlux application with Actuator's {@code /actuator/health}, a page at {@code /public/**}, and, for any
 * request carrying {@code X-Path-Report}, a report of the path as WebFlux, its URI and the engine see it:
 * {@code webflux=<getPath()> uri=<getURI().getRawPath()> engine=<getRequestURI().getRawPath()>}.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class PathTestApplication {

    /** The request header that asks for the path report. */
    static final String REPORT = "X-Path-Report";

    @Bean
    RouterFunction<ServerResponse> pathRoutes() {
        return RouterFunctions.route()
                .route(RequestPredicates.headers(headers -> !headers.header(REPORT).isEmpty()),
                        request -> ServerResponse.ok().contentType(MediaType.TEXT_PLAIN)
                                .bodyValue(report(request.exchange().getRequest())))
                .GET("/public/**", request -> ServerResponse.ok().contentType(MediaType.TEXT_PLAIN)
                        .bodyValue("public " + request.path()))
                .build();
    }

    private static String report(ServerHttpRequest request) {
        HttpExchange engine = ServerHttpRequestDecorator.getNativeRequest(request);
        return "webflux=" + request.getPath().value() + " uri=" + request.getURI().getRawPath() + " engine="
                + engine.getRequestURI().getRawPath();
    }
}
