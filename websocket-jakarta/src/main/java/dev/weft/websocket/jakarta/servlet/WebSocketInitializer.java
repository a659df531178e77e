package dev.weft.websocket.jakarta.servlet;

import dev.weft.websocket.jakarta.WeftServerContainer;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.HandlesTypes;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.server.ServerApplicationConfig;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpoint;
import jakarta.websocket.server.ServerEndpointConfig;

import java.lang.reflect.Modifier;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Sets up Jakarta WebSocket in a web application of Weft's servlet container (Jakarta WebSocket §6.4): publishes a
 * {@link WeftServerContainer} as the {@code jakarta.websocket.server.ServerContainer} context attribute, adds the
 * filter that hands handshakes to it, and deploys the application's endpoints: those the
 * {@link ServerApplicationConfig} implementations choose when there are any, else every {@code @ServerEndpoint}
 * class. The container closes its sessions when the context is destroyed.
 */
@HandlesTypes({ServerEndpoint.class, ServerApplicationConfig.class, Endpoint.class})
public final class WebSocketInitializer implements ServletContainerInitializer {

    /** The context attribute the specification names. */
    public static final String ATTRIBUTE = ServerContainer.class.getName();

    /** The instance the service loader makes. */
    public WebSocketInitializer() {
    }

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) throws ServletException {
        WeftServerContainer container = WeftServerContainer.create();
        context.setAttribute(ATTRIBUTE, container);
        FilterRegistration.Dynamic filter = context.addFilter("weft-websocket", new WebSocketUpgradeFilter(container));
        if (filter != null) {
            filter.setAsyncSupported(true);
            filter.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
        }
        context.addListener(new ServletContextListener() {
            @Override
            public void contextDestroyed(ServletContextEvent sce) {
                container.close();
            }
        });
        try {
            deploy(classes == null ? Set.of() : classes, container);
        } catch (DeploymentException | ReflectiveOperationException e) {
            throw new ServletException("WebSocket endpoint deployment failed: " + e.getMessage(), e);
        }
    }

    private static void deploy(Set<Class<?>> classes, WeftServerContainer container)
            throws DeploymentException, ReflectiveOperationException {
        Set<Class<?>> annotated = new LinkedHashSet<>();
        Set<Class<? extends Endpoint>> programmatic = new HashSet<>();
        Set<ServerApplicationConfig> configs = new LinkedHashSet<>();
        for (Class<?> c : classes) {
            if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
                continue;
            }
            if (ServerApplicationConfig.class.isAssignableFrom(c)) {
                configs.add((ServerApplicationConfig) c.getConstructor().newInstance());
            } else if (c.isAnnotationPresent(ServerEndpoint.class)) {
                annotated.add(c);
            } else if (Endpoint.class.isAssignableFrom(c)) {
                programmatic.add(c.asSubclass(Endpoint.class));
            }
        }
        if (configs.isEmpty()) {
            for (Class<?> c : annotated) {
                container.addEndpoint(c);
            }
            return;
        }
        for (ServerApplicationConfig config : configs) {
            Set<ServerEndpointConfig> endpoints = config.getEndpointConfigs(Set.copyOf(programmatic));
            if (endpoints != null) {
                for (ServerEndpointConfig e : endpoints) {
                    container.addEndpoint(e);
                }
            }
            Set<Class<?>> chosen = config.getAnnotatedEndpointClasses(Set.copyOf(annotated));
            if (chosen != null) {
                for (Class<?> c : chosen) {
                    container.addEndpoint(c);
                }
            }
        }
    }
}
