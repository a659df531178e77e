package dev.weft.spring.boot.websocket;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.ReactiveSecurityContextHolder;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.userdetails.MapReactiveUserDetailsService;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.authentication.HttpStatusServerEntryPoint;
import org.springframework.web.filter.reactive.ServerWebExchangeContextFilter;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.reactive.handler.SimpleUrlHandlerMapping;
import org.springframework.web.reactive.socket.WebSocketHandler;
import org.springframework.web.reactive.socket.WebSocketSession;
import org.springframework.web.server.WebFilter;
import reactor.core.publisher.Mono;

import java.util.Map;

/**
 * A WebFlux application whose WebSocket handlers read the Reactor context of their upgrade request:
 * <ul>
 *   <li>{@code /context/exchange} sends the path and the {@code X-Marker} header of the exchange that
 *       {@link ServerWebExchangeContextFilter} put in the context ({@code none} when there is none);
 *   <li>{@code /secure/whoami} sends the name in Spring Security's {@link ReactiveSecurityContextHolder}
 *       ({@code nobody} when there is none); the upgrade needs a session logged in by form ({@code alice},
 *       password {@link #PASSWORD}; {@code 401} without).
 * </ul>
 * Spring Security is configured here by hand (its Boot auto-configuration is not on the test class path).
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
@EnableWebFluxSecurity
class ContextTestApplication {

    static final String PASSWORD = "s3cret-for-tests";

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    WebFilter exchangeContextFilter() {
        return new ServerWebExchangeContextFilter();
    }

    @Bean
    SecurityWebFilterChain security(ServerHttpSecurity http) {
        return http
                .authorizeExchange(exchanges -> exchanges
                        .pathMatchers("/secure/**").authenticated()
                        .anyExchange().permitAll())
                .formLogin(Customizer.withDefaults())
                .exceptionHandling(handling -> handling.authenticationEntryPoint(
                        new HttpStatusServerEntryPoint(HttpStatus.UNAUTHORIZED)))
                .csrf(ServerHttpSecurity.CsrfSpec::disable)
                .build();
    }

    @Bean
    MapReactiveUserDetailsService users() {
        return new MapReactiveUserDetailsService(User.withUsername("alice")
                .password("{noop}" + PASSWORD).roles("USER").build());
    }

    @Bean
    HandlerMapping contextWebSocketMapping() {
        return new SimpleUrlHandlerMapping(Map.of(
                "/context/exchange", (WebSocketHandler) ContextTestApplication::exchangeFromContext,
                "/secure/whoami", (WebSocketHandler) ContextTestApplication::userFromContext), 1);
    }

    private static Mono<Void> exchangeFromContext(WebSocketSession session) {
        Mono<String> seen = Mono.deferContextual(context -> Mono.justOrEmpty(
                        ServerWebExchangeContextFilter.getExchange(context)))
                .map(exchange -> "path=" + exchange.getRequest().getPath().value() + " marker="
                        + exchange.getRequest().getHeaders().getFirst("X-Marker"))
                .defaultIfEmpty("none");
        return session.send(seen.map(session::textMessage));
    }

    private static Mono<Void> userFromContext(WebSocketSession session) {
        Mono<String> user = ReactiveSecurityContextHolder.getContext()
                .map(SecurityContext::getAuthentication)
                .map(Authentication::getName)
                .defaultIfEmpty("nobody");
        return session.send(user.map(session::textMessage));
    }
}
