package dev.weft.httpserver.accesslog;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.core.RequestHeaders;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Cost of an access log line on the exchange's thread: the {@link LogEntry} built from a finished exchange and
 * formatted in the default (combined) pattern into a connection's batch, which is handed over every 16 lines as a
 * pipelined batch is. The file writes happen on the writer thread and are not measured here. Scores are
 * nanoseconds per line.
 *
 * <p>In the access log's package (the batch's buffer and the formatting are package-private); that works because
 * the benchmarks run on the class path.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@State(Scope.Thread)
public class AccessLogLineBenchmark {

    static final int BATCH = 16;

    private final LogPattern combined = LogPattern.compile(LogPattern.COMBINED);
    private final LogPattern common = LogPattern.compile(LogPattern.COMMON);
    private final InetSocketAddress client = new InetSocketAddress("127.0.0.1", 51234);
    private final InetSocketAddress server = new InetSocketAddress("127.0.0.1", 8080);
    private final Headers responseHeaders = new Headers();
    private RequestHeaders minimalFields;
    private RequestHeaders browserFields;
    private LineBuffer lines;

    @Setup
    public void setUp() {
        minimalFields = new RequestHeaders();
        minimalFields.append("Host", "127.0.0.1:8080");
        minimalFields.freeze();
        browserFields = new RequestHeaders();
        browserFields.append("Host", "www.example.com");
        browserFields.append("User-agent",
                "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0");
        browserFields.append("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
        browserFields.append("Referer", "https://www.example.com/articles/2024");
        browserFields.freeze();
        responseHeaders.set("Content-Type", "text/plain");
        lines = new LineBuffer(512);
        String line = format(combined, minimalFields, "/plaintext", System.nanoTime()).toString();
        if (!line.matches("127\\.0\\.0\\.1 - - \\[[^]]+] \"GET /plaintext HTTP/1\\.1\" 200 13 \"-\" \"-\"\n")) {
            throw new IllegalStateException("unexpected line: " + line);
        }
        lines.take();
    }

    private LineBuffer format(LogPattern pattern, RequestHeaders fields, String target, long start) {
        LogEntry entry = LogEntry.ending(start + 40_000, client, server, null, "GET", target, "HTTP/1.1", 200,
                13, start, fields, responseHeaders);
        pattern.format(entry, lines);
        lines.endLine();
        return lines;
    }

    /** One batch of lines, handed over as a connection hands over a pipelined batch's. */
    private Lines batch(LogPattern pattern, RequestHeaders fields, String target) {
        long start = System.nanoTime();
        for (int i = 0; i < BATCH; i++) {
            format(pattern, fields, target, start);
        }
        return lines.take();
    }

    /** What wrk's plaintext requests log: only Host among the fields. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void minimalLine(Blackhole bh) {
        bh.consume(batch(combined, minimalFields, "/plaintext"));
    }

    /** The same line in the common pattern: no request fields looked up. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void minimalCommonLine(Blackhole bh) {
        bh.consume(batch(common, minimalFields, "/plaintext"));
    }

    /** A browser's navigation: a longer target, a Referer and a User-Agent to copy and escape. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void browserLine(Blackhole bh) {
        bh.consume(batch(combined, browserFields, "/articles/2024/http-parsing?page=2&sort=recent"));
    }
}
