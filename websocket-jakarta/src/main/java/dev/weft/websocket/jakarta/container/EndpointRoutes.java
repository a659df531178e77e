package dev.weft.websocket.jakarta.container;

import jakarta.websocket.DeploymentException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The deployed endpoint paths and the best match of a request path (Jakarta WebSocket §3.1.1): segment by
 * segment from the left, exact segments before variables.
 */
public final class EndpointRoutes {

    /**
     * A match.
     *
     * @param mount          the endpoint
     * @param pathParameters the template's values
     */
    public record Match(EndpointMount mount, Map<String, String> pathParameters) {
    }

    private record Route(UriTemplate template, EndpointMount mount) {
    }

    private final List<Route> routes = new CopyOnWriteArrayList<>();

    /** Adds an endpoint; one at the same or an equivalent path is a {@link DeploymentException}. */
    void add(UriTemplate template, EndpointMount mount) throws DeploymentException {
        synchronized (routes) { // no I/O: only guards the check-then-add
            for (Route r : routes) {
                if (r.template().shape().equals(template.shape())) {
                    throw new DeploymentException("an endpoint is deployed at " + r.template().path()
                            + " already, equivalent to " + template.path());
                }
            }
            routes.add(new Route(template, mount));
        }
    }

    List<EndpointMount> mounts() {
        return routes.stream().map(Route::mount).toList();
    }

    /** The best match of {@code path} (decoded, starting with {@code /}), or null. */
    Match find(String path) {
        if (path == null || !path.startsWith("/")) {
            return null;
        }
        List<String> segments = UriTemplate.split(path);
        List<Route> candidates = new ArrayList<>();
        for (Route r : routes) {
            if (r.template().size() == segments.size()) {
                candidates.add(r);
            }
        }
        for (int i = 0; i < segments.size() && !candidates.isEmpty(); i++) {
            String seg = segments.get(i);
            int at = i;
            List<Route> exact = candidates.stream().filter(r -> r.template().literalAt(at, seg)).toList();
            candidates = exact.isEmpty()
                    ? candidates.stream().filter(r -> r.template().variableAt(at, seg)).toList() : exact;
        }
        if (candidates.isEmpty()) {
            return null;
        }
        Route best = candidates.get(0);
        return new Match(best.mount(), best.template().values(segments));
    }
}
