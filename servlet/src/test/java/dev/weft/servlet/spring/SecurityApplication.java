package dev.weft.servlet.spring;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.config.annotation.EnableWebMvc;

import java.security.Principal;

/** Spring Security's filter chain in front of MVC: form login with CSRF, HTTP Basic, one public page. */
@Configuration
@EnableWebMvc
@EnableWebSecurity
public class SecurityApplication {

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        http.authorizeHttpRequests(a -> a.requestMatchers("/public").permitAll().anyRequest().authenticated())
                .formLogin(Customizer.withDefaults())
                .httpBasic(Customizer.withDefaults());
        return http.build();
    }

    @Bean
    UserDetailsService users() {
        return new InMemoryUserDetailsManager(User.withUsername("user").password("{noop}password").roles("USER")
                .build());
    }

    @RestController
    static class Pages {

        @GetMapping("/public")
        String open() {
            return "public";
        }

        @GetMapping("/private")
        String secret(Principal principal, HttpServletRequest request) {
            return "hello " + principal.getName() + " session=" + request.getSession().getId();
        }
    }
}
