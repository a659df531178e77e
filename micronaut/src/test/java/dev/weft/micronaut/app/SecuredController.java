package dev.weft.micronaut.app;

import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.security.annotation.Secured;
import io.micronaut.security.authentication.Authentication;
import io.micronaut.security.rules.SecurityRule;

/** Routes behind micronaut-security: one for any authenticated user, one for the {@code ADMIN} role. */
@Controller(value = "/secured", produces = MediaType.TEXT_PLAIN)
public class SecuredController {

    @Secured(SecurityRule.IS_AUTHENTICATED)
    @Get("/me")
    public String me(Authentication user) {
        return user.getName() + " " + user.getRoles().stream().sorted().toList();
    }

    @Secured("ADMIN")
    @Get("/admin")
    public String admin(Authentication user) {
        return "admin area, " + user.getName();
    }
}
