package dev.weft.httpserver;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine's layout holds: its packages depend on each other without a cycle (measured on the compiled
 * classes by {@code jdeps}), and it exports exactly the packages of its public API, the ones
 * {@code docs/architecture.md} lists. (That no exported type exposes a non-exported one is checked by the
 * compiler: {@code -Xlint:all -Werror}.)
 */
class ArchitectureTest {

    private static final String BASE = "dev.weft.httpserver";
    private static final Path CLASSES = Path.of("target", "classes");
    private static final Pattern EDGE = Pattern.compile("^\\s+(" + Pattern.quote(BASE) + "[\\w.]*)\\s+->\\s+("
            + Pattern.quote(BASE) + "[\\w.]*)\\s");

    @Test
    void packagesDependOnEachOtherWithoutACycle() {
        Map<String, Set<String>> graph = packageGraph();
        assertTrue(graph.size() > 10, () -> "jdeps found too few packages: " + graph.keySet());

        List<String> cycle = findCycle(graph);

        assertTrue(cycle.isEmpty(), () -> "package cycle: " + String.join(" -> ", cycle) + "\ngraph: " + graph);
    }

    @Test
    void theModuleExportsExactlyThePublicApi() throws Exception {
        ModuleDescriptor module = descriptor();
        Set<String> exported = module.exports().stream()
                .filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toCollection(TreeSet::new));

        assertEquals(new TreeSet<>(Set.of(BASE, BASE + ".config", BASE + ".files", BASE + ".forms", BASE + ".stats",
                BASE + ".spi", BASE + ".websocket", BASE + ".proxy", BASE + ".forwarded", BASE + ".proxyprotocol")),
                exported);
    }

    @Test
    void architectureDocumentListsEveryExportedPackageOnce() throws Exception {
        Path doc = Path.of("..", "docs", "architecture.md");
        assertTrue(Files.exists(doc), "docs/architecture.md");
        String text = Files.readString(doc);
        for (ModuleDescriptor.Exports e : descriptor().exports()) {
            // One table row or list line that names the package in code style.
            long lines = text.lines().filter(l -> l.contains("`" + e.source() + "`")).count();
            assertTrue(lines >= 1, "docs/architecture.md does not list " + e.source());
        }
    }

    /** The engine's compiled {@code module-info} (tests run on the class path, where it is not in effect). */
    private static ModuleDescriptor descriptor() throws java.io.IOException {
        try (var in = Files.newInputStream(CLASSES.resolve("module-info.class"))) {
            return ModuleDescriptor.read(in);
        }
    }

    /** Package → the engine packages it uses, from {@code jdeps -verbose:package} on the compiled classes. */
    private static Map<String, Set<String>> packageGraph() {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("no jdeps"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(err), "-verbose:package",
                CLASSES.toAbsolutePath().toString());
        assertEquals(0, exit, () -> "jdeps failed: " + err);
        Map<String, Set<String>> graph = new TreeMap<>();
        for (String line : out.toString().lines().toList()) {
            Matcher m = EDGE.matcher(line);
            if (m.find() && !m.group(1).equals(m.group(2))) {
                graph.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
                graph.computeIfAbsent(m.group(2), k -> new TreeSet<>());
            }
        }
        return graph;
    }

    /** A cycle in {@code graph} as a list of nodes (first repeated last), or empty if there is none. */
    private static List<String> findCycle(Map<String, Set<String>> graph) {
        Map<String, Integer> state = new HashMap<>(); // 1 on the path, 2 done
        for (String start : graph.keySet()) {
            List<String> path = new ArrayList<>();
            List<String> cycle = visit(start, graph, state, path, new HashSet<>());
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        return List.of();
    }

    private static List<String> visit(String node, Map<String, Set<String>> graph, Map<String, Integer> state,
                                      List<String> path, Set<String> onPath) {
        Integer s = state.get(node);
        if (s != null && s == 2) {
            return List.of();
        }
        if (onPath.contains(node)) {
            List<String> cycle = new ArrayList<>(path.subList(path.indexOf(node), path.size()));
            cycle.add(node);
            return cycle;
        }
        onPath.add(node);
        path.add(node);
        for (String next : graph.getOrDefault(node, Set.of())) {
            List<String> cycle = visit(next, graph, state, path, onPath);
            if (!cycle.isEmpty()) {
                return cycle;
            }
        }
        path.remove(path.size() - 1);
        onPath.remove(node);
        state.put(node, 2);
        return List.of();
    }
}
