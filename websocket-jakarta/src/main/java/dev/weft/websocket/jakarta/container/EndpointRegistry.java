package dev.weft.websocket.jakarta.container;

import dev.weft.websocket.jakarta.endpoint.EndpointMethods;
import dev.weft.websocket.jakarta.session.OpenSessions;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.Session;
import jakarta.websocket.server.ServerEndpointConfig;

import java.util.List;

/** The endpoints of one container: deployment checks and the route of an opening request. */
public final class EndpointRegistry {

    private final Deployment deployment;
    private final EndpointRoutes routes = new EndpointRoutes();
    /** The sessions opened by {@code upgradeHttpToWebSocket}, whose configurations are not deployed. */
    private final OpenSessions upgraded = new OpenSessions();

    /** An empty registry whose endpoints share {@code deployment}. */
    public EndpointRegistry(Deployment deployment) {
        this.deployment = deployment;
    }

    /** Deploys an annotated endpoint class. */
    public void add(Class<?> annotated) throws DeploymentException {
        add(AnnotatedConfig.of(annotated));
    }

    /**
     * Deploys an endpoint: an {@link Endpoint} subclass, or an annotated class whose methods are checked now.
     *
     * @throws DeploymentException for an invalid path or class, or a path deployed already
     */
    public void add(ServerEndpointConfig config) throws DeploymentException {
        Class<?> type = config.getEndpointClass();
        EndpointMethods methods = Endpoint.class.isAssignableFrom(type) ? null
                : EndpointMethods.of(type, config.getDecoders());
        routes.add(new UriTemplate(config.getPath()), new EndpointMount(config, methods, deployment));
    }

    /** The endpoint and path parameters for {@code path} (decoded, relative to the mount point), or null. */
    public EndpointRoutes.Match find(String path) {
        return routes.find(path);
    }

    /** The mount of the endpoint deployed with {@code config}'s path, or null. */
    public EndpointMount mountOf(ServerEndpointConfig config) {
        for (EndpointMount m : routes.mounts()) {
            if (m.config() == config || m.config().getPath().equals(config.getPath())) {
                return m;
            }
        }
        return null;
    }

    /**
     * A mount of {@code config} that is not routed, for {@code upgradeHttpToWebSocket} (callers such as Spring make
     * a configuration per handshake): its sessions are the open sessions of all such mounts together.
     */
    public EndpointMount unrouted(ServerEndpointConfig config) throws DeploymentException {
        Class<?> type = config.getEndpointClass();
        EndpointMethods methods = Endpoint.class.isAssignableFrom(type) ? null
                : EndpointMethods.of(type, config.getDecoders());
        return new EndpointMount(config, methods, deployment, upgraded);
    }

    /** Every open session of every endpoint. */
    public List<Session> openSessions() {
        List<Session> all = new java.util.ArrayList<>(upgraded.snapshot());
        routes.mounts().forEach(m -> all.addAll(m.openSessions().snapshot()));
        return all;
    }
}
