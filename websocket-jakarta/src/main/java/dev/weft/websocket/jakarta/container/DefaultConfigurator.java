package dev.weft.websocket.jakarta.container;

import jakarta.websocket.Extension;
import jakarta.websocket.HandshakeResponse;
import jakarta.websocket.server.HandshakeRequest;
import jakarta.websocket.server.ServerEndpointConfig;

import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;

/**
 * The container's default {@link ServerEndpointConfig.Configurator} (found by the API through
 * {@link java.util.ServiceLoader}): the server's first supported subprotocol the client offered, the offered
 * extensions the server has in the client's order, every origin accepted, no handshake change, and a new
 * instance per connection through the public no-argument constructor.
 */
public final class DefaultConfigurator extends ServerEndpointConfig.Configurator {

    /** The instance the service loader makes. */
    public DefaultConfigurator() {
    }

    @Override
    public String getNegotiatedSubprotocol(List<String> supported, List<String> requested) {
        for (String s : supported) {
            // a caller may list null as its only subprotocol (Spring does when the client asked for none)
            if (s != null && requested.contains(s)) {
                return s;
            }
        }
        return "";
    }

    @Override
    public List<Extension> getNegotiatedExtensions(List<Extension> installed, List<Extension> requested) {
        List<Extension> out = new ArrayList<>();
        for (Extension r : requested) {
            if (installed.stream().anyMatch(i -> i.getName().equals(r.getName()))) {
                out.add(r);
            }
        }
        return out;
    }

    @Override
    public boolean checkOrigin(String originHeaderValue) {
        return true;
    }

    @Override
    public void modifyHandshake(ServerEndpointConfig sec, HandshakeRequest request, HandshakeResponse response) {
        // no change
    }

    @Override
    public <T> T getEndpointInstance(Class<T> endpointClass) throws InstantiationException {
        try {
            return endpointClass.getConstructor().newInstance();
        } catch (InvocationTargetException e) {
            InstantiationException ie = new InstantiationException("constructor of " + endpointClass.getName()
                    + " threw: " + e.getCause());
            ie.initCause(e.getCause());
            throw ie;
        } catch (ReflectiveOperationException e) {
            InstantiationException ie = new InstantiationException("cannot create " + endpointClass.getName()
                    + ": " + e);
            ie.initCause(e);
            throw ie;
        }
    }
}
