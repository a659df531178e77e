package dev.weft.httpserver.http2;

import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.MiniJson;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs the raw HTTP/2 client scripts of {@code src/test/resources/h2} (python3 and the {@code h2} package) and
 * reads the JSON they print.
 */
final class PythonH2 {

    private static final List<String> SCRIPTS = List.of("h2common.py", "h2_requests.py", "h2_rapid_reset.py",
            "ws_over_h2.py", "h2raw.py", "h2_stream_states.py", "h2_flood.py", "h2_slow_streams.py");
    private static Path dir;

    private PythonH2() {
    }

    /** The scripts, copied out of the class path once per JVM; fails or skips when python3 or h2 is missing. */
    static synchronized Path scripts() {
        if (dir == null) {
            ExternalTools.requirePythonModule("h2");
            try {
                Path d = Files.createTempDirectory("weft-h2-scripts");
                for (String name : SCRIPTS) {
                    try (InputStream in = PythonH2.class.getResourceAsStream("/h2/" + name)) {
                        assertNotNull(in, "test resource /h2/" + name + " not on the class path");
                        Files.copy(in, d.resolve(name));
                    }
                }
                d.toFile().deleteOnExit();
                SCRIPTS.forEach(n -> d.resolve(n).toFile().deleteOnExit());
                dir = d;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return dir;
    }

    private static List<String> command(String script, List<String> args) {
        Path python = ExternalTools.requirePythonModule("h2");
        List<String> cmd = new ArrayList<>(List.of(python.toString(), scripts().resolve(script).toString()));
        cmd.addAll(args);
        return cmd;
    }

    /** Starts a script without waiting for it. */
    static ExternalTools.Running start(String script, List<String> args) {
        return ExternalTools.start(command(script, args), null);
    }

    /** Runs a script to its end and returns the JSON object it printed. */
    static Map<String, Object> run(String script, List<String> args, Duration timeout) {
        return json(ExternalTools.start(command(script, args), null).await(timeout));
    }

    /** The JSON object a finished script printed; fails with its output when it failed. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> json(ExternalTools.Result r) {
        if (r.exit() != 0) {
            fail("script failed: " + r.describe());
        }
        String out = r.stdout().strip();
        int lastLine = out.lastIndexOf('\n');
        Object parsed;
        try {
            parsed = MiniJson.parse(lastLine < 0 ? out : out.substring(lastLine + 1));
        } catch (RuntimeException e) {
            throw new AssertionError("script printed no JSON: " + r.describe(), e);
        }
        if (!(parsed instanceof Map)) {
            fail("script printed no JSON object: " + r.describe());
        }
        Map<String, Object> m = (Map<String, Object>) parsed;
        m.put("_stderr", r.stderr());
        return m;
    }

    // ---- h2_requests.py ----

    /** One request for h2_requests.py. */
    static final class Req {
        final Map<String, Object> spec = new LinkedHashMap<>();

        private Req(String method, String path) {
            spec.put("method", method);
            spec.put("path", path);
        }

        static Req get(String path) {
            return new Req("GET", path);
        }

        static Req of(String method, String path) {
            return new Req(method, path);
        }

        /** {@code size} bytes of the pattern {@code i % 251}. */
        Req bodySize(long size) {
            spec.put("body_size", size);
            return this;
        }

        Req bodyText(String text) {
            spec.put("body_text", text);
            return this;
        }

        Req header(String name, String value) {
            list("headers").add(List.of(name, value));
            return this;
        }

        Req trailer(String name, String value) {
            list("trailers").add(List.of(name, value));
            return this;
        }

        /** Opens the stream this long after the connection started. */
        Req delay(double seconds) {
            spec.put("delay", seconds);
            return this;
        }

        /** Opens the stream only once the requests at these indexes (earlier in the list) have finished. */
        Req after(int... indexes) {
            List<Object> after = list("after");
            for (int i : indexes) {
                after.add(i);
            }
            return this;
        }

        @SuppressWarnings("unchecked")
        private List<Object> list(String key) {
            return (List<Object>) spec.computeIfAbsent(key, k -> new ArrayList<>());
        }
    }

    /** The arguments of h2_requests.py for these requests on one connection (the spec goes to a temp file). */
    static List<String> requestArgs(int port, boolean overTls, double timeoutSeconds, List<Req> requests) {
        StringBuilder sb = new StringBuilder("{\"requests\": [");
        for (int i = 0; i < requests.size(); i++) {
            sb.append(i == 0 ? "" : ", ");
            writeJson(sb, requests.get(i).spec);
        }
        sb.append("]}");
        try {
            Path spec = Files.createTempFile("weft-h2-spec", ".json");
            spec.toFile().deleteOnExit();
            Files.writeString(spec, sb, StandardCharsets.UTF_8);
            List<String> args = new ArrayList<>(List.of("--port", String.valueOf(port),
                    "--timeout", String.valueOf(timeoutSeconds)));
            if (overTls) {
                args.add("--tls");
            }
            args.add(spec.toString());
            return args;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends the requests on one connection and returns what came back. */
    static Outcome requests(int port, boolean overTls, List<Req> requests) {
        return new Outcome(run("h2_requests.py", requestArgs(port, overTls, 30, requests), Duration.ofSeconds(60)));
    }

    /** Sends the requests on one connection and returns what came back. */
    static Outcome requests(int port, boolean overTls, Req... requests) {
        return requests(port, overTls, List.of(requests));
    }

    /** What h2_requests.py printed. */
    record Outcome(Map<String, Object> json) {
        @SuppressWarnings("unchecked")
        List<Stream> streams() {
            return ((List<Object>) json.get("streams")).stream().map(s -> new Stream((Map<String, Object>) s)).toList();
        }

        Stream stream(int index) {
            return streams().get(index);
        }

        @SuppressWarnings("unchecked")
        List<Map<String, Object>> goaways() {
            return (List<Map<String, Object>>) (List<?>) json.get("goaways");
        }

        String error() {
            return (String) json.get("error");
        }

        @Override
        public String toString() {
            Map<String, Object> shown = new LinkedHashMap<>(json);
            Object stderr = shown.remove("_stderr");
            return shown + (stderr == null || stderr.toString().isBlank() ? "" : "\nstderr: " + stderr);
        }
    }

    /** One stream's result in h2_requests.py's JSON. */
    record Stream(Map<String, Object> json) {
        Integer status() {
            return integer("status");
        }

        /** The first value of a response header (lower-case name), or null. */
        @SuppressWarnings("unchecked")
        String header(String name) {
            for (Object o : (List<Object>) json.get("headers")) {
                List<Object> pair = (List<Object>) o;
                if (pair.get(0).equals(name)) {
                    return (String) pair.get(1);
                }
            }
            return null;
        }

        @SuppressWarnings("unchecked")
        List<List<String>> trailers() {
            return (List<List<String>>) (List<?>) json.get("trailers");
        }

        long bodyLength() {
            return ((Number) json.get("body_length")).longValue();
        }

        String body() {
            return (String) json.get("body");
        }

        String bodySha256() {
            return (String) json.get("body_sha256");
        }

        boolean ended() {
            return Boolean.TRUE.equals(json.get("ended"));
        }

        /** The RST_STREAM error code received, -1 for a stream above a GOAWAY's last id, or null. */
        Integer reset() {
            return integer("reset");
        }

        double openedAt() {
            return ((Number) json.get("opened_at")).doubleValue();
        }

        double finishedAt() {
            Object v = json.get("finished_at");
            return v == null ? Double.NaN : ((Number) v).doubleValue();
        }

        private Integer integer(String key) {
            Object v = json.get(key);
            return v == null ? null : ((Number) v).intValue();
        }
    }

    // ---- a minimal JSON writer for the request specs ----

    private static void writeJson(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof String s) {
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    sb.append('\\').append(c);
                } else if (c < 0x20 || c > 0x7e) {
                    sb.append(String.format("\\u%04x", (int) c));
                } else {
                    sb.append(c);
                }
            }
            sb.append('"');
        } else if (v instanceof Number || v instanceof Boolean) {
            sb.append(v);
        } else if (v instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                sb.append(first ? "" : ", ");
                first = false;
                writeJson(sb, e.getKey().toString());
                sb.append(": ");
                writeJson(sb, e.getValue());
            }
            sb.append('}');
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                sb.append(i == 0 ? "" : ", ");
                writeJson(sb, l.get(i));
            }
            sb.append(']');
        } else {
            throw new IllegalArgumentException("not JSON: " + v);
        }
    }
}
