package dev.weft.spring.boot.autoconfigure;

import dev.weft.spring.boot.servlet.WeftServletWebServerFactory;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementContextFactory;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.web.server.servlet.ServletWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * Runs Actuator on a Weft servlet server of its own (a servlet child context) when
 * {@code management.server.port} differs from the server port.
 *
 * <p>The {@link ManagementContextFactory} bean has a name of its own and is {@code @Primary}, and exists only
 * when the application's server is Weft: Tomcat's and Jetty's auto-configurations, if present, declare theirs
 * as {@code servletWebChildContextFactory} unconditionally.
 */
@AutoConfiguration(after = WeftServletWebServerAutoConfiguration.class)
@ConditionalOnClass({ ManagementContextFactory.class, WeftServletWebServerFactory.class })
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnManagementPort(ManagementPortType.DIFFERENT)
@ConditionalOnBean(WeftServletWebServerFactory.class)
public final class WeftServletManagementContextAutoConfiguration {

    @Bean
    @Primary
    static ManagementContextFactory weftServletWebChildContextFactory() {
        return new ManagementContextFactory(WebApplicationType.SERVLET, ServletWebServerFactory.class,
                WeftServletWebServerAutoConfiguration.class);
    }
}
