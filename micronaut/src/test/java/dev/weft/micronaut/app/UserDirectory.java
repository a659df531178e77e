package dev.weft.micronaut.app;

import io.micronaut.http.HttpRequest;
import io.micronaut.security.authentication.AuthenticationFailureReason;
import io.micronaut.security.authentication.AuthenticationRequest;
import io.micronaut.security.authentication.AuthenticationResponse;
import io.micronaut.security.authentication.provider.HttpRequestAuthenticationProvider;
import jakarta.inject.Singleton;

import java.util.List;
import java.util.Map;

/**
 * The security tests' users (used only where {@code micronaut.security.enabled} is on): {@code alice} with the
 * role {@code USER}, {@code root} with {@code USER} and {@code ADMIN}. Answers HTTP Basic and {@code POST /login}.
 */
@Singleton
public class UserDirectory<B> implements HttpRequestAuthenticationProvider<B> {

    /** Password of every user. */
    public static final String PASSWORD = "open sesame";

    private static final Map<String, List<String>> ROLES = Map.of(
            "alice", List.of("USER"),
            "root", List.of("USER", "ADMIN"));

    @Override
    public AuthenticationResponse authenticate(HttpRequest<B> request,
                                               AuthenticationRequest<String, String> credentials) {
        List<String> roles = ROLES.get(credentials.getIdentity());
        if (roles == null) {
            return AuthenticationResponse.failure(AuthenticationFailureReason.USER_NOT_FOUND);
        }
        if (!PASSWORD.equals(credentials.getSecret())) {
            return AuthenticationResponse.failure(AuthenticationFailureReason.CREDENTIALS_DO_NOT_MATCH);
        }
        return AuthenticationResponse.success(credentials.getIdentity(), roles);
    }
}
