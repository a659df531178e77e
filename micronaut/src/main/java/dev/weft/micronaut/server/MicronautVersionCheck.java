package dev.weft.micronaut.server;

import io.micronaut.context.annotation.Context;
import io.micronaut.core.version.VersionUtils;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Refuses to start on a Micronaut older than the 4.10 line {@code weft-micronaut} is built against (it drives
 * {@code micronaut-http-server}'s {@code RequestLifecycle} and {@code ResponseLifecycle}, whose API changes
 * between minor releases), with one sentence saying what to do. A bean created as the context starts, before
 * the embedded server: on an older Micronaut the server's own classes may not even load (Micronaut then skips
 * them and the application runs as a command-line application that ends at once).
 */
@Context
final class MicronautVersionCheck {

    static final int REQUIRED_MAJOR = 4;
    static final int REQUIRED_MINOR = 10;

    private static final Pattern MAJOR_MINOR = Pattern.compile("(\\d{1,9})\\.(\\d{1,9})(?:[.\\-+].*)?");

    MicronautVersionCheck() {
        requireSupportedMicronaut();
    }

    /** Throws {@link IllegalStateException} when the Micronaut core on the class path is older than 4.10. */
    static void requireSupportedMicronaut() {
        problem(VersionUtils.getMicronautVersion()).ifPresent(message -> {
            throw new IllegalStateException(message);
        });
    }

    /**
     * Why {@code weft-micronaut} cannot run on Micronaut {@code found}, or empty when it can (4.10 or later, or a
     * version that cannot be read: then nothing is known against it).
     */
    static Optional<String> problem(String found) {
        if (found == null) {
            return Optional.empty();
        }
        Matcher version = MAJOR_MINOR.matcher(found.trim());
        if (!version.matches()) {
            return Optional.empty();
        }
        int major = Integer.parseInt(version.group(1));
        int minor = Integer.parseInt(version.group(2));
        if (major > REQUIRED_MAJOR || (major == REQUIRED_MAJOR && minor >= REQUIRED_MINOR)) {
            return Optional.empty();
        }
        return Optional.of("weft-micronaut needs Micronaut core " + REQUIRED_MAJOR + "." + REQUIRED_MINOR
                + " or later but found Micronaut " + found.trim() + " on the class path: import the Micronaut platform"
                + " BOM 4.10.x (io.micronaut.platform:micronaut-platform, or micronautVersion=4.10.x with the Gradle"
                + " plugin) so that micronaut-http-server and micronaut-core are 4.10 too.");
    }
}
