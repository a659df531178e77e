package dev.weft.spring.boot.autoconfigure;

import dev.weft.spring.boot.servlet.WeftServletWebServerFactory;
import dev.weft.websocket.jakarta.servlet.WebSocketInitializer;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;

import java.util.Set;

/**
 * Installs Weft's Jakarta WebSocket container in the servlet context of a {@link WeftServletWebServerFactory}:
 * its {@link WebSocketInitializer} runs after the application's initializers, with no classes to deploy (Spring's
 * {@code ServerEndpointExporter} deploys annotated endpoints), as Spring Boot adds Tomcat's and Jetty's.
 */
public class WeftServletWebSocketCustomizer implements WebServerFactoryCustomizer<WeftServletWebServerFactory> {

    @Override
    public void customize(WeftServletWebServerFactory factory) {
        factory.addInitializers(context -> new WebSocketInitializer().onStartup(Set.of(), context));
    }
}
