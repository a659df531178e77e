package dev.weft.micronaut.server;

import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.ApplicationEventPublisher;
import io.micronaut.discovery.EmbeddedServerInstance;
import io.micronaut.discovery.event.ServiceReadyEvent;
import io.micronaut.runtime.ApplicationConfiguration;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import jakarta.inject.Singleton;

import java.net.URI;

/**
 * Announces a named application as ready once Weft serves it, as Micronaut's Netty server does: a
 * {@link ServiceReadyEvent} after the server started, when {@code micronaut.application.name} is set. Service
 * registration and the {@code service} health indicator (which reports DOWN until it sees the event) wait for it.
 */
@Singleton
@Requires(classes = ServiceReadyEvent.class)
@Requires(property = ApplicationConfiguration.APPLICATION_NAME)
final class ServiceReadiness implements ApplicationEventListener<ServerStartupEvent> {

    private final ApplicationConfiguration application;
    private final ApplicationEventPublisher<ServiceReadyEvent> publisher;

    ServiceReadiness(ApplicationConfiguration application, ApplicationEventPublisher<ServiceReadyEvent> publisher) {
        this.application = application;
        this.publisher = publisher;
    }

    @Override
    public void onApplicationEvent(ServerStartupEvent event) {
        if (event.getSource() instanceof WeftEmbeddedServer server) {
            application.getName().ifPresent(name -> publisher.publishEvent(
                    new ServiceReadyEvent(new ServerInstance(name, server))));
        }
    }

    /** The running server as a service instance: the application's name and the server's address. */
    private record ServerInstance(String id, EmbeddedServer server) implements EmbeddedServerInstance {

        @Override
        public String getId() {
            return id;
        }

        @Override
        public URI getURI() {
            return server.getURI();
        }

        @Override
        public EmbeddedServer getEmbeddedServer() {
            return server;
        }
    }
}
