package dev.weft.spring.boot;

import dev.weft.httpserver.config.ServerConfig;

/**
 * Callback that adjusts the engine's {@link ServerConfig} before a Weft server is created. Beans of this type
 * are applied by the auto-configured {@link WeftReactiveWebServerFactory}, in order, after every Spring Boot
 * property, so a customizer has the last word.
 */
@FunctionalInterface
public interface WeftServerCustomizer {

    /**
     * Customizes the configuration of the server about to be created.
     *
     * @param builder the configuration so far; change it in place
     */
    void customize(ServerConfig.Builder builder);
}
