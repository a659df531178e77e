package dev.weft.spring.boot.autoconfigure;

import dev.weft.servlet.ServletContainer;
import dev.weft.spring.boot.WeftServerCustomizer;
import dev.weft.spring.boot.servlet.WeftServletWebServerFactory;
import jakarta.servlet.ServletRequest;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.SearchStrategy;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.autoconfigure.servlet.ServletWebServerConfiguration;
import org.springframework.boot.web.server.servlet.ServletWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of Weft as the embedded server of a servlet (Spring MVC) application: a Weft servlet
 * container on the Weft engine.
 *
 * <p>Like Spring Boot's own servers, Weft backs off when another {@link ServletWebServerFactory} is defined, and
 * it runs after the Tomcat and Jetty auto-configurations: with {@code spring-boot-starter-tomcat} still on the
 * class path, Tomcat is used. To run Spring MVC on Weft, exclude {@code spring-boot-starter-tomcat} from
 * {@code spring-boot-starter-webmvc} and add this starter; nothing else is needed. Every {@code server.*}
 * property Spring Boot applies to servlet servers ({@code server.servlet.*} included) and every
 * {@code weft.server.*} property applies.
 *
 * <p>Weft runs every connection on its own virtual thread by design: {@code spring.threads.virtual.enabled} is
 * not required and changes nothing for Weft. JSP is not supported.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.tomcat.autoconfigure.servlet.TomcatServletWebServerAutoConfiguration",
        "org.springframework.boot.jetty.autoconfigure.servlet.JettyServletWebServerAutoConfiguration" })
@ConditionalOnClass({ ServletRequest.class, ServletContainer.class, WeftServletWebServerFactory.class })
@ConditionalOnWebApplication(type = Type.SERVLET)
@EnableConfigurationProperties(WeftServerProperties.class)
@Import(ServletWebServerConfiguration.class)
public final class WeftServletWebServerAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(value = ServletWebServerFactory.class, search = SearchStrategy.CURRENT)
    WeftServletWebServerFactory weftServletWebServerFactory(ObjectProvider<WeftServerCustomizer> serverCustomizers) {
        WeftServletWebServerFactory factory = new WeftServletWebServerFactory();
        factory.setServerCustomizers(serverCustomizers.orderedStream().toList());
        return factory;
    }

    @Bean
    WeftWebServerFactoryCustomizer weftWebServerFactoryCustomizer(ServerProperties serverProperties,
            WeftServerProperties weftServerProperties, Environment environment) {
        return new WeftWebServerFactoryCustomizer(serverProperties, weftServerProperties,
                Threading.VIRTUAL.isActive(environment),
                WeftWebServerFactoryCustomizer.cloudPlatformForwards(environment));
    }
}
