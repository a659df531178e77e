package dev.weft.websocket.jakarta.container;

import jakarta.websocket.Decoder;
import jakarta.websocket.Encoder;
import jakarta.websocket.Extension;
import jakarta.websocket.server.ServerEndpointConfig;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An endpoint configuration as one connection sees it: the deployed one, with a copy of its user properties of
 * its own, which {@code modifyHandshake} fills and the session's {@code getUserProperties()} shows.
 */
final class ConnectionConfig implements ServerEndpointConfig {

    private final ServerEndpointConfig deployed;
    private final Map<String, Object> userProperties;

    ConnectionConfig(ServerEndpointConfig deployed) {
        this.deployed = deployed;
        this.userProperties = new ConcurrentHashMap<>();
        deployed.getUserProperties().forEach((k, v) -> {
            if (k != null && v != null) {
                userProperties.put(k, v);
            }
        });
    }

    @Override
    public Class<?> getEndpointClass() {
        return deployed.getEndpointClass();
    }

    @Override
    public String getPath() {
        return deployed.getPath();
    }

    @Override
    public List<String> getSubprotocols() {
        return deployed.getSubprotocols();
    }

    @Override
    public List<Extension> getExtensions() {
        return deployed.getExtensions();
    }

    @Override
    public Configurator getConfigurator() {
        return deployed.getConfigurator();
    }

    @Override
    public List<Class<? extends Encoder>> getEncoders() {
        return deployed.getEncoders();
    }

    @Override
    public List<Class<? extends Decoder>> getDecoders() {
        return deployed.getDecoders();
    }

    @Override
    public Map<String, Object> getUserProperties() {
        return userProperties;
    }
}
