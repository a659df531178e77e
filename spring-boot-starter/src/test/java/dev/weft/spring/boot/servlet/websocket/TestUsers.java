package dev.weft.spring.boot.servlet.websocket;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/** The users of {@link OnWeftWithWebSocket}. */
@TestConfiguration(proxyBeanMethods = false)
class TestUsers {

    @Bean
    UserDetailsService users() {
        return new InMemoryUserDetailsManager(
                User.withUsername(OnWeftWithWebSocket.ALICE).password("{noop}" + OnWeftWithWebSocket.PASSWORD)
                        .roles("USER").build(),
                User.withUsername(OnWeftWithWebSocket.BOB).password("{noop}" + OnWeftWithWebSocket.PASSWORD)
                        .roles("USER").build());
    }
}
