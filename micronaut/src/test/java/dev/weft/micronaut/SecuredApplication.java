package dev.weft.micronaut;

import java.util.Map;

/**
 * The settings under which the sample application's {@code /secured} routes are protected by micronaut-security:
 * HTTP Basic (on by default) and JWT bearer tokens issued by {@code POST /login}, signed with a test secret.
 */
public final class SecuredApplication {

    public static final Map<String, String> PROPERTIES = Map.of(
            "micronaut.security.enabled", "true",
            "micronaut.security.authentication", "bearer",
            "micronaut.security.token.jwt.signatures.secret.generator.secret",
            "a-test-secret-of-at-least-256-bits-for-HS256-signing");

    private SecuredApplication() {
    }
}
