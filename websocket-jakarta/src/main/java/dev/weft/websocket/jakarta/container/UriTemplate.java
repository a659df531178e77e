package dev.weft.websocket.jakarta.container;

import jakarta.websocket.DeploymentException;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An endpoint path: a relative URI or a level-1 URI template whose variables are whole segments
 * (Jakarta WebSocket §3.1.1).
 */
final class UriTemplate {

    private final String path;
    private final List<String> segments;
    private final List<Boolean> variable;

    UriTemplate(String path) throws DeploymentException {
        if (path == null || !path.startsWith("/") || path.contains("//") || path.contains("/./")
                || path.contains("/../") || path.endsWith("/.") || path.endsWith("/..")) {
            throw new DeploymentException("invalid endpoint path: " + path);
        }
        this.path = path;
        this.segments = new ArrayList<>();
        this.variable = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String s : split(path)) {
            boolean var = s.startsWith("{") && s.endsWith("}") && s.length() > 2;
            if (!var && (s.indexOf('{') >= 0 || s.indexOf('}') >= 0)) {
                throw new DeploymentException("a variable must be a whole segment: " + path);
            }
            String name = var ? s.substring(1, s.length() - 1) : s;
            if (var && !names.add(name)) {
                throw new DeploymentException("variable {" + name + "} is used twice in " + path);
            }
            segments.add(name);
            variable.add(var);
        }
    }

    /** The segments of a path: {@code /a/b/} has three, the last empty. */
    static List<String> split(String path) {
        List<String> out = new ArrayList<>();
        int start = 1;
        for (int i = 1; i <= path.length(); i++) {
            if (i == path.length() || path.charAt(i) == '/') {
                out.add(path.substring(start, i));
                start = i + 1;
            }
        }
        return out;
    }

    String path() {
        return path;
    }

    int size() {
        return segments.size();
    }

    /** Whether segment {@code i} is a literal equal to {@code value}. */
    boolean literalAt(int i, String value) {
        return !variable.get(i) && segments.get(i).equals(value);
    }

    /** Whether segment {@code i} is a variable (which any non-empty value matches). */
    boolean variableAt(int i, String value) {
        return variable.get(i) && !value.isEmpty();
    }

    /** The variables' values in {@code requestSegments}, which this template matches. */
    Map<String, String> values(List<String> requestSegments) {
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < segments.size(); i++) {
            if (variable.get(i)) {
                values.put(segments.get(i), requestSegments.get(i));
            }
        }
        return Map.copyOf(values);
    }

    /** This path with every variable's name dropped: equal for equivalent templates. */
    String shape() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < segments.size(); i++) {
            b.append('/').append(variable.get(i) ? "{}" : segments.get(i));
        }
        return b.toString();
    }
}
