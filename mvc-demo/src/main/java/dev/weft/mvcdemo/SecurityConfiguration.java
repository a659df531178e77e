package dev.weft.mvcdemo;

import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Form login (Spring Security's login page, CSRF tokens in every form, a new session id after login) in front of
 * the account page and Actuator's metrics; everything else is public. The user comes from
 * {@code spring.security.user.*}. The JSON API under {@code /api} needs no CSRF token: it changes nothing a
 * session cookie could authorize. The chat's WebSocket handshake ({@code /chat-ws}) is a GET, so CSRF tokens do not
 * apply to it; Spring's same-origin check of its {@code Origin} header ({@link ChatConfiguration}) keeps other sites
 * out instead.
 */
@Configuration(proxyBeanMethods = false)
class SecurityConfiguration {

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(requests -> requests
                        .requestMatchers(EndpointRequest.to("health", "info")).permitAll()
                        .requestMatchers("/account", "/actuator/**").authenticated()
                        .anyRequest().permitAll())
                .csrf(csrf -> csrf.ignoringRequestMatchers("/api/**"))
                .formLogin(login -> login.defaultSuccessUrl("/account"))
                .logout(Customizer.withDefaults());
        return http.build();
    }
}
