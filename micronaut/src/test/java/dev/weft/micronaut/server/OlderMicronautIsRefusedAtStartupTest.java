package dev.weft.micronaut.server;

import io.micronaut.core.version.VersionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * {@link MicronautVersionCheck}: a Micronaut core older than 4.10 is refused with one sentence naming the version
 * found, the version needed and the platform BOM to import; 4.10 and later, and versions it cannot read, pass.
 */
class OlderMicronautIsRefusedAtStartupTest {

    @ParameterizedTest
    @ValueSource(strings = {"4.6.6", "4.9.11", "4.0.0", "3.10.4", "4.9.0-SNAPSHOT", " 4.6.3 "})
    void anOlderVersionIsRefusedNamingWhatWasFoundWhatIsNeededAndWhatToDo(String found) {
        assertThat(MicronautVersionCheck.problem(found)).hasValueSatisfying(message -> assertThat(message)
                .contains("found Micronaut " + found.trim() + " on the class path")
                .contains("needs Micronaut core 4.10 or later")
                .contains("import the Micronaut platform BOM 4.10.x")
                .doesNotContain("\n")
                .endsWith("."));
    }

    @ParameterizedTest
    @ValueSource(strings = {"4.10.0", "4.10.15", "4.10.0-SNAPSHOT", "4.11.2", "4.100.0", "5.0.0-M1", "10.0"})
    void the410LineAndLaterPass(String found) {
        assertThat(MicronautVersionCheck.problem(found)).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "unknown", "4", "${project.version}", "99999999999.1.0"})
    void aVersionThatCannotBeReadIsNotHeldAgainstTheApplication(String found) {
        assertThat(MicronautVersionCheck.problem(found)).isEmpty();
    }

    @Test
    void noVersionAtAllPassesToo() {
        assertThat(MicronautVersionCheck.problem(null)).isEmpty();
    }

    @Test
    void theMicronautThisModuleIsBuiltWithPasses() {
        assertThat(VersionUtils.getMicronautVersion()).startsWith("4.10.");
        assertThatNoException().isThrownBy(MicronautVersionCheck::requireSupportedMicronaut);
    }
}
