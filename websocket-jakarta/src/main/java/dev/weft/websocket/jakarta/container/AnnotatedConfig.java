package dev.weft.websocket.jakarta.container;

import jakarta.websocket.DeploymentException;
import jakarta.websocket.server.ServerEndpoint;
import jakarta.websocket.server.ServerEndpointConfig;

import java.util.List;

/** The {@link ServerEndpointConfig} a {@code @ServerEndpoint} annotation describes. */
final class AnnotatedConfig {

    private AnnotatedConfig() {
    }

    static ServerEndpointConfig of(Class<?> type) throws DeploymentException {
        ServerEndpoint a = type.getAnnotation(ServerEndpoint.class);
        if (a == null) {
            throw new DeploymentException(type.getName() + " is not annotated with @ServerEndpoint");
        }
        ServerEndpointConfig.Builder b = ServerEndpointConfig.Builder.create(type, a.value())
                .subprotocols(List.of(a.subprotocols()))
                .encoders(List.of(a.encoders()))
                .decoders(List.of(a.decoders()));
        if (a.configurator() != ServerEndpointConfig.Configurator.class) {
            try {
                b.configurator(a.configurator().getConstructor().newInstance());
            } catch (ReflectiveOperationException e) {
                throw new DeploymentException("cannot create the configurator of " + type.getName(), e);
            }
        }
        return b.build();
    }
}
