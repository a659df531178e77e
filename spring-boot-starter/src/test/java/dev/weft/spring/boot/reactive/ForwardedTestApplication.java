package dev.weft.spring.boot.reactive;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

/**
 * A WebFlux application answering {@code /origin} with what WebFlux sees of the request's origin:
 * {@code <remote address> <URI scheme> <URI authority> <context path>}.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class ForwardedTestApplication {

    @Bean
    RouterFunction<ServerResponse> originRoute() {
        return RouterFunctions.route()
                .GET("/origin", request -> ServerResponse.ok().contentType(MediaType.TEXT_PLAIN)
                        .bodyValue(report(request.exchange().getRequest())))
                .build();
    }

    private static String report(ServerHttpRequest request) {
        return request.getRemoteAddress().getAddress().getHostAddress() + " " + request.getURI().getScheme() + " "
                + request.getURI().getRawAuthority() + " " + request.getPath().contextPath().value();
    }
}
