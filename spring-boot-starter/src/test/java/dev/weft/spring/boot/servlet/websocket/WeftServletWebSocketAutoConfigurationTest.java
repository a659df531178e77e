package dev.weft.spring.boot.servlet.websocket;

import dev.weft.spring.boot.autoconfigure.WeftServletWebServerAutoConfiguration;
import dev.weft.spring.boot.autoconfigure.WeftServletWebSocketAutoConfiguration;
import dev.weft.spring.boot.autoconfigure.WeftServletWebSocketCustomizer;
import dev.weft.spring.boot.servlet.WeftServletWebServerFactory;
import dev.weft.websocket.jakarta.WeftServerContainer;
import dev.weft.websocket.jakarta.servlet.WebSocketInitializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.servlet.ServletContextInitializer;

import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the servlet WebSocket auto-configuration applies (a servlet application with weft-websocket-jakarta), and
 * that the factory it customizes publishes Weft's Jakarta container in the servlet context.
 */
@Timeout(60)
class WeftServletWebSocketAutoConfigurationTest {

    private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(WeftServletWebServerAutoConfiguration.class,
                    WeftServletWebSocketAutoConfiguration.class));

    @Test
    void aServletApplicationWithTheJakartaModuleGetsTheCustomizer() {
        runner.run(context -> assertThat(context).hasSingleBean(WeftServletWebSocketCustomizer.class));
    }

    @Test
    void withoutTheJakartaModuleItBacksOff() {
        runner.withClassLoader(new FilteredClassLoader(WebSocketInitializer.class))
                .run(context -> assertThat(context).doesNotHaveBean(WeftServletWebSocketCustomizer.class));
    }

    @Test
    void aReactiveApplicationGetsNone() {
        new ReactiveWebApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(WeftServletWebSocketAutoConfiguration.class))
                .run(context -> assertThat(context).doesNotHaveBean(WeftServletWebSocketCustomizer.class));
    }

    @Test
    void theCustomizedFactoryPublishesTheContainerAfterTheApplicationsInitializers() {
        WeftServletWebServerFactory factory = new WeftServletWebServerFactory(0);
        new WeftServletWebSocketCustomizer().customize(factory);
        AtomicReference<Object> seenByApplication = new AtomicReference<>("not run");
        AtomicReference<Object> published = new AtomicReference<>();
        ServletContextInitializer application = context -> {
            seenByApplication.set(context.getAttribute("jakarta.websocket.server.ServerContainer"));
            context.addListener(new jakarta.servlet.ServletContextListener() {
                @Override
                public void contextInitialized(jakarta.servlet.ServletContextEvent sce) {
                    published.set(sce.getServletContext().getAttribute("jakarta.websocket.server.ServerContainer"));
                }
            });
        };

        WebServer server = factory.getWebServer(application);
        try {
            assertThat(seenByApplication.get()).as("as with Tomcat: the factory's initializers run last").isNull();
            assertThat(published.get()).isInstanceOf(WeftServerContainer.class);
        } finally {
            server.stop();
            server.destroy();
        }
    }
}
