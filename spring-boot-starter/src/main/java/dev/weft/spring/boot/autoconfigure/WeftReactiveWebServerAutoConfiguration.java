package dev.weft.spring.boot.autoconfigure;

import dev.weft.httpserver.Weft;
import dev.weft.spring.boot.WeftReactiveWebServerFactory;
import dev.weft.spring.boot.WeftServerCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.boot.web.server.autoconfigure.ServerProperties;
import org.springframework.boot.web.server.autoconfigure.reactive.ReactiveWebServerConfiguration;
import org.springframework.boot.web.server.reactive.ReactiveWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.http.ReactiveHttpInputMessage;

/**
 * Auto-configuration of Weft as the embedded server of a reactive (WebFlux) application.
 *
 * <p>It runs before Spring Boot's Reactor Netty, Jetty and Tomcat auto-configurations, so Weft is chosen
 * whenever this starter is on the class path, even next to one of them; a user-defined
 * {@link ReactiveWebServerFactory} bean still wins. Excluding {@code spring-boot-starter-reactor-netty} from
 * {@code spring-boot-starter-webflux} is recommended all the same.
 *
 * <p>Weft runs every connection on its own virtual thread by design: {@code spring.threads.virtual.enabled} is
 * not required and changes nothing for Weft.
 */
@AutoConfiguration(beforeName = {
        "org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration",
        "org.springframework.boot.jetty.autoconfigure.reactive.JettyReactiveWebServerAutoConfiguration",
        "org.springframework.boot.tomcat.autoconfigure.reactive.TomcatReactiveWebServerAutoConfiguration" })
@ConditionalOnClass({ ReactiveHttpInputMessage.class, Weft.class, WeftReactiveWebServerFactory.class })
@ConditionalOnWebApplication(type = Type.REACTIVE)
@EnableConfigurationProperties(WeftServerProperties.class)
@Import(ReactiveWebServerConfiguration.class)
public final class WeftReactiveWebServerAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(ReactiveWebServerFactory.class)
    WeftReactiveWebServerFactory weftReactiveWebServerFactory(ObjectProvider<WeftServerCustomizer> serverCustomizers) {
        WeftReactiveWebServerFactory factory = new WeftReactiveWebServerFactory();
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
