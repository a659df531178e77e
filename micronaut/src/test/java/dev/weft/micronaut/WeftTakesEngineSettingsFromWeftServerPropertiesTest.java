package dev.weft.micronaut;

import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.micronaut.server.WeftEmbeddedServer;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Property;
import io.micronaut.context.env.Environment;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code weft.server.*} properties reach the engine (over the Micronaut property they overlap), and an invalid
 * one fails startup with a {@link ConfigurationException} naming it.
 */
@MicronautTest
@Property(name = "weft.server.max-connections", value = "1234")
@Property(name = "micronaut.server.idle-timeout", value = "7m")
@Property(name = "weft.server.idle-timeout", value = "45s")
class WeftTakesEngineSettingsFromWeftServerPropertiesTest {

    @Inject
    EmbeddedServer server;

    @Test
    void weftServerPropertiesReachTheEngineAndWinOverMicronautOnes() {
        ServerConfig config = Weft.config(((WeftEmbeddedServer) server).getServer());
        assertThat(config.maxConnections()).isEqualTo(1234);
        assertThat(config.idleTimeout()).isEqualTo(Duration.ofSeconds(45));
    }

    @Test
    void anOutOfBoundsValueFailsStartupNamingTheProperty() {
        assertThatThrownBy(() -> {
            try (ApplicationContext context = ApplicationContext.run(EmbeddedServer.class,
                    Map.of("weft.server.max-connections", "-5", "micronaut.server.port", "-1"),
                    Environment.TEST).getApplicationContext()) {
                context.getBean(EmbeddedServer.class).start();
            }
        }).satisfies(failure -> assertThat(configurationFailure(failure))
                .isNotNull()
                .hasMessageContaining("weft.server.max-connections")
                .hasMessageContaining("-5"));
    }

    @Test
    void aMalformedDurationFailsStartupNamingTheProperty() {
        assertThatThrownBy(() -> ApplicationContext.run(EmbeddedServer.class,
                Map.of("weft.server.idle-timeout", "soon", "micronaut.server.port", "-1"), Environment.TEST).stop())
                .satisfies(failure -> assertThat(configurationFailure(failure))
                        .isNotNull()
                        .hasMessageContaining("weft.server.idle-timeout")
                        .hasMessageContaining("soon"));
    }

    /** The outermost {@link ConfigurationException} in the chain of {@code failure}, or {@code null}. */
    private static ConfigurationException configurationFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ConfigurationException c) {
                return c;
            }
        }
        return null;
    }
}
