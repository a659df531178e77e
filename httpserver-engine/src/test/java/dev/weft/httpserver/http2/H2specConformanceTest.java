package dev.weft.httpserver.http2;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.ExternalTools;
import dev.weft.httpserver.testing.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * HTTP/2 conformance by h2spec (v2.2.1, built by scripts/install-test-tools.sh) in strict mode ({@code -S}, every
 * case including the strict ones; the default mode runs a subset of them): every case must pass, over cleartext
 * with prior knowledge (h2c) and over TLS with ALPN (h2), against a handler that reads the request body and one
 * that answers without reading it (so that h2spec's frames meet streams whose response is already complete).
 *
 * <p>Several runs in a row each: how a stream's state and an arriving frame interleave depends on timing, and a
 * state-machine bug shows up as a case that fails in some runs only. Any case that does not pass in any run
 * fails the test; nothing is retried.
 *
 * <p>h2spec writes a JUnit XML report; a failure lists every case that did not pass (failed, errored or
 * skipped) with its id, description and h2spec's expected/actual lines. {@code h2spec -S -p PORT -P PATH ID}
 * (plus {@code -t -k} for TLS) reruns a single case by that id.
 */
@Timeout(value = 30, unit = java.util.concurrent.TimeUnit.MINUTES)
class H2specConformanceTest {

    /** Consecutive strict runs per transport and handler; every one must pass. */
    static final int RUNS = 5;
    /**
     * h2spec's wait for each expected frame (its {@code -o}), seconds. A passing run never waits for it (the whole
     * run takes about a second); it is generous so that a cold TLS connection on a loaded machine is not a failure.
     */
    private static final int CASE_TIMEOUT_SECONDS = 8;
    /** Longest one h2spec run may take. */
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(7);
    /** Fewer cases than this in a report means h2spec did not really run. */
    private static final int MIN_CASES = 146;

    /** A few hundred bytes: h2spec's flow-control cases expect DATA frames from the response. */
    static final byte[] RESPONSE_BODY = ("Weft answering h2spec. " + "0123456789abcdef".repeat(24) + "\n")
            .getBytes(StandardCharsets.US_ASCII);

    /** The two handlers h2spec talks to, by their context path. */
    enum Handler {
        /** Reads the request body to its end, then answers. */
        READS_BODY("/"),
        /** Answers at once without reading the request body. */
        IGNORES_BODY("/unread");

        final String path;

        Handler(String path) {
            this.path = path;
        }
    }

    private static Path h2spec;
    private static HttpServer cleartext;
    private static HttpsServer tls;

    @TempDir
    Path tmp;

    @BeforeAll
    static void startServers() throws IOException {
        h2spec = ExternalTools.require("h2spec");
        cleartext = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        tls = Weft.createHttpsServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        tls.setHttpsConfigurator(new HttpsConfigurator(TestCertificates.get().serverContext()));
        for (HttpServer s : List.of(cleartext, tls)) {
            s.createContext(Handler.READS_BODY.path, ex -> answer(ex, true));
            s.createContext(Handler.IGNORES_BODY.path, ex -> answer(ex, false));
            s.start();
        }
    }

    @AfterAll
    static void stopServers() {
        if (cleartext != null) {
            cleartext.stop(0);
        }
        if (tls != null) {
            tls.stop(0);
        }
    }

    /** Reads the request body to its end if asked to, and answers 200 with {@link #RESPONSE_BODY}. */
    static void answer(HttpExchange exchange, boolean readBody) throws IOException {
        if (readBody) {
            exchange.getRequestBody().readAllBytes();
        }
        exchange.getResponseHeaders().set("Content-Type", "text/plain");
        exchange.sendResponseHeaders(200, RESPONSE_BODY.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(RESPONSE_BODY);
        }
    }

    @ParameterizedTest(name = "{0}, TLS {1}")
    @CsvSource({"READS_BODY, false", "IGNORES_BODY, false", "READS_BODY, true", "IGNORES_BODY, true"})
    void everyStrictCasePassesInConsecutiveRuns(Handler handler, boolean overTls) throws IOException {
        HttpServer server = overTls ? tls : cleartext;
        List<String> failures = new ArrayList<>();
        for (int run = 1; run <= RUNS; run++) {
            String failure = conform(server.getAddress().getPort(), overTls, handler, run);
            if (failure != null) {
                failures.add(failure);
            }
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " of " + RUNS + " consecutive runs did not pass:\n" + String.join("\n", failures));
        }
    }

    /** One strict h2spec run; null if every case passed, else what did not. */
    private String conform(int port, boolean overTls, Handler handler, int run) throws IOException {
        Path report = tmp.resolve("h2spec-report-" + run + ".xml");
        List<String> flags = new ArrayList<>(List.of("-S", "-P", handler.path));
        if (overTls) {
            flags.addAll(List.of("-t", "-k"));
        }
        List<String> command = new ArrayList<>(List.of(h2spec.toString(), "-h", "127.0.0.1", "-p",
                String.valueOf(port), "-o", String.valueOf(CASE_TIMEOUT_SECONDS), "-j", report.toString()));
        command.addAll(flags);
        String mode = (overTls ? "h2 over TLS" : "h2c cleartext") + ", strict, " + handler + ", run " + run + " of "
                + RUNS;

        long start = System.nanoTime();
        ExternalTools.Result result = ExternalTools.run(command, RUN_TIMEOUT);
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (!Files.exists(report)) {
            return "h2spec (" + mode + ") wrote no report:\n" + result.describe();
        }
        List<Case> cases = parseReport(Files.readString(report, StandardCharsets.UTF_8));
        Summary summary = Summary.of(result.stdout());
        List<Case> notPassed = cases.stream().filter(c -> !c.outcome().equals("passed")).toList();
        System.out.println("H2specConformanceTest " + mode + ": " + cases.size() + " cases, "
                + (cases.size() - notPassed.size()) + " passed, " + notPassed.size() + " not passed in " + millis
                + " ms" + (summary == null ? "" : " (h2spec: " + summary.line() + ")"));

        StringBuilder msg = new StringBuilder();
        if (cases.size() < MIN_CASES) {
            msg.append("h2spec (").append(mode).append(") reported only ").append(cases.size()).append(" cases:\n")
                    .append(result.describe());
        } else if (summary != null && summary.total() != cases.size()) {
            msg.append("h2spec (").append(mode).append("): ").append(cases.size()).append(" cases in the report, ")
                    .append(summary.total()).append(" in its summary line");
        } else if (!notPassed.isEmpty()) {
            msg.append("h2spec ").append(mode).append(": ").append(notPassed.size()).append(" of ")
                    .append(cases.size()).append(" cases did not pass (rerun one: h2spec -p PORT ")
                    .append(String.join(" ", flags)).append(" ID)");
            for (Case c : notPassed) {
                msg.append("\n  ").append(c.id()).append(" [").append(c.outcome()).append("] ").append(c.description());
                c.detailLines().forEach(line -> msg.append("\n      ").append(line));
            }
        } else if (result.exit() != 0) {
            msg.append("h2spec (").append(mode).append(") exit code ").append(result.exit())
                    .append(" with every case passed:\n").append(result.describe());
        }
        if (msg.isEmpty()) {
            return null;
        }
        System.out.println(msg);
        return msg.toString();
    }

    // ---- h2spec's JUnit report ----

    /**
     * One case of the report. {@code id} is h2spec's own ({@code http2/6.5.3/1}: group, then the case's number in
     * its group), {@code outcome} one of passed, failed, error, skipped.
     */
    record Case(String id, String description, String outcome, String detail) {
        /**
         * h2spec's explanation: its content is the expected lines then the actual one ({@code Expect:} /
         * {@code Actual:} labels in a {@code <failure>}, bare lines in an {@code <error>}).
         */
        List<String> detailLines() {
            List<String> lines = new ArrayList<>(detail.lines().map(String::strip).filter(l -> !l.isEmpty()).toList());
            if (lines.isEmpty()) {
                return lines;
            }
            List<String> out = new ArrayList<>();
            int actualAt = lines.indexOf("Actual:");
            if (lines.get(0).equals("Expect:") && actualAt > 0) {
                lines.subList(1, actualAt).forEach(l -> out.add("expected: " + l));
                lines.subList(actualAt + 1, lines.size()).forEach(l -> out.add("actual:   " + l));
            } else if (lines.size() == 1) {
                out.add("actual:   " + lines.get(0));
            } else {
                lines.subList(0, lines.size() - 1).forEach(l -> out.add("expected: " + l));
                out.add("actual:   " + lines.get(lines.size() - 1));
            }
            return out;
        }
    }

    private static final Pattern SUITE = Pattern.compile("<testsuite\\b([^>]*)>(.*?)</testsuite>", Pattern.DOTALL);
    private static final Pattern CASE = Pattern.compile("<testcase\\b([^>]*?)(?:/>|>(.*?)</testcase>)", Pattern.DOTALL);
    private static final Pattern ATTRIBUTE = Pattern.compile("([\\w:-]+)=\"([^\"]*)\"");
    private static final Pattern OUTCOME = Pattern.compile("<(failure|error|skipped)\\b[^>]*?(?:/>|>(.*?)</\\1>)",
            Pattern.DOTALL);

    /**
     * The cases of an h2spec JUnit report, in order. Read with patterns rather than an XML parser on purpose:
     * h2spec writes the text of a failure unescaped ({@code innerxml}), so a report need not be well-formed XML.
     */
    static List<Case> parseReport(String xml) {
        List<Case> cases = new ArrayList<>();
        Matcher suite = SUITE.matcher(xml);
        while (suite.find()) {
            String group = attributes(suite.group(1)).getOrDefault("package", "?");
            Matcher tc = CASE.matcher(suite.group(2));
            int seq = 0;
            while (tc.find()) {
                seq++;
                String description = attributes(tc.group(1)).getOrDefault("classname", "?");
                String outcome = "passed";
                String detail = "";
                if (tc.group(2) != null) {
                    Matcher o = OUTCOME.matcher(tc.group(2));
                    if (o.find()) {
                        outcome = o.group(1).equals("failure") ? "failed" : o.group(1);
                        detail = o.group(2) == null ? "" : unescape(o.group(2));
                    }
                }
                cases.add(new Case(group + "/" + seq, description, outcome, detail));
            }
        }
        return cases;
    }

    private static Map<String, String> attributes(String s) {
        Map<String, String> map = new LinkedHashMap<>();
        Matcher a = ATTRIBUTE.matcher(s);
        while (a.find()) {
            map.put(a.group(1), unescape(a.group(2)));
        }
        return map;
    }

    private static String unescape(String s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            int semi = c == '&' ? s.indexOf(';', i) : -1;
            if (semi < 0 || semi - i > 10) {
                out.append(c);
                continue;
            }
            String entity = s.substring(i + 1, semi);
            String replacement = switch (entity) {
                case "lt" -> "<";
                case "gt" -> ">";
                case "amp" -> "&";
                case "quot" -> "\"";
                case "apos" -> "'";
                default -> {
                    try {
                        if (entity.startsWith("#x")) {
                            yield Character.toString(Integer.parseInt(entity.substring(2), 16));
                        } else if (entity.startsWith("#")) {
                            yield Character.toString(Integer.parseInt(entity.substring(1)));
                        }
                    } catch (IllegalArgumentException e) {
                        // not an entity: keep the text as it is
                    }
                    yield null;
                }
            };
            if (replacement == null) {
                out.append(c);
            } else {
                out.append(replacement);
                i = semi;
            }
        }
        return out.toString();
    }

    /** h2spec's closing line, {@code 146 tests, 146 passed, 0 skipped, 0 failed}. */
    record Summary(int total, int passed, int skipped, int failed, String line) {
        private static final Pattern LINE = Pattern.compile("(\\d+) tests, (\\d+) passed, (\\d+) skipped, (\\d+) failed");

        static Summary of(String stdout) {
            Matcher m = LINE.matcher(stdout.replaceAll("\u001b\\[[0-9;]*m", ""));
            Summary last = null;
            while (m.find()) {
                last = new Summary(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                        Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4)), m.group());
            }
            return last;
        }
    }
}
