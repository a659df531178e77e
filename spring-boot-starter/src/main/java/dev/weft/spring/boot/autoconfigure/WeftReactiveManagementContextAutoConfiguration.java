package dev.weft.spring.boot.autoconfigure;

import dev.weft.spring.boot.WeftReactiveWebServerFactory;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextFactory;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * Runs Actuator on a Weft server of its own when {@code management.server.port} differs from the server port.
 *
 * <p>The {@link ManagementContextFactory} bean has a name of its own and is {@code @Primary}: Reactor Netty's and
 * Tomcat's auto-configurations, if present, declare theirs as {@code reactiveWebChildContextFactory}
 * unconditionally, and reusing that name would fail with a bean definition override.
 */
@AutoConfiguration(after = WeftReactiveWebServerAutoConfiguration.class)
@ConditionalOnClass({ ManagementContextFactory.class, WeftReactiveWebServerFactory.class })
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnManagementPort(ManagementPortType.DIFFERENT)
@ConditionalOnBean(WeftReactiveWebServerFactory.class)
public final class WeftReactiveManagementContextAutoConfiguration {

    @Bean
    @Primary
    static ManagementContextFactory weftReactiveWebChildContextFactory() {
        return new ManagementContextFactory(WebApplicationType.REACTIVE, ReactiveWebServerFactory.class,
                WeftReactiveWebServerAutoConfiguration.class);
    }
}
