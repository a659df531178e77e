package dev.weft.httpserver.http1;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.ConnectionOutput;
import dev.weft.httpserver.core.ResponseFields;
import dev.weft.httpserver.core.ResponseFraming;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Cost of writing one HTTP/1.1 response head, as {@link Http1Exchange#sendResponse} does it: the handler's fields
 * checked ({@link ResponseFields#validate}), the framing decided ({@link ResponseFraming#of}), then
 * {@link ResponseHeadWriter#write} into the connection's {@link ConnectionOutput} (status line, the handler's
 * fields, {@code Content-Length}, {@code Date} from the engine's cache and {@code Server} if configured), and the
 * output flushed.
 *
 * <p>In the same package as the writer (package-private), like {@link RequestParserBenchmark}; the benchmarks run
 * on the class path. The output's buffer has the engine's default size and writes to a sink that only counts the
 * bytes, so the score is the head's encoding and copying, not a socket. The handler's {@link Headers} are built
 * once (building them is the handler's cost, not the writer's). Scores are nanoseconds per response head.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@State(Scope.Thread)
public class ResponseHeadWriterBenchmark {

    /** The plaintext benchmark's answer: 13 bytes of text/plain. */
    static final int PLAINTEXT_LENGTH = 13;

    /** A web application's HTML page: 10 fields of the handler's, plus Content-Length and Date. */
    static final int PAGE_LENGTH = 18_342;

    private final ServerConfig config = ServerConfig.defaults();
    private Sink sink;
    private ConnectionOutput out;
    private Headers minimal;
    private Headers browser;

    @Setup
    public void setUp() throws IOException {
        sink = new Sink();
        out = new ConnectionOutput(sink, 16 * 1024);
        minimal = new Headers();
        minimal.set("Content-Type", "text/plain");
        browser = new Headers();
        browser.set("Content-Type", "text/html; charset=utf-8");
        browser.set("Cache-Control", "no-cache, no-store, max-age=0, must-revalidate");
        browser.set("Content-Language", "en-US");
        browser.set("Vary", "Accept-Encoding, Accept-Language");
        browser.set("X-Content-Type-Options", "nosniff");
        browser.set("X-Frame-Options", "DENY");
        browser.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
        browser.set("Referrer-Policy", "strict-origin-when-cross-origin");
        browser.add("Set-Cookie", "SESSION=4f9c2d1e8b7a6f5e4d3c2b1a09f8e7d6; Path=/; Secure; HttpOnly; SameSite=Lax");
        browser.add("Set-Cookie", "XSRF-TOKEN=9a8b7c6d-5e4f-3a2b-1c0d-e9f8a7b6c5d4; Path=/; Secure; SameSite=Strict");
        // Fail fast if a scenario would measure something else than a complete head with its Date.
        check(minimalHead(), minimal, PLAINTEXT_LENGTH);
        check(browserHead(), browser, PAGE_LENGTH);
        sink.last = null; // from now on the sink only counts
    }

    private void check(long bytes, Headers handlerFields, long length) {
        String head = sink.last;
        int fields = handlerFields.values().stream().mapToInt(List::size).sum();
        if (bytes != head.length() || !head.startsWith("HTTP/1.1 200 OK\r\n") || !head.endsWith("\r\n\r\n")
                || !head.contains("\r\nContent-Length: " + length + "\r\n") || !head.contains("\r\nDate: ")
                || head.split("\r\n").length != 1 + fields + 2 + (config.serverHeader() == null ? 0 : 1)) {
            throw new IllegalStateException("unexpected response head (" + bytes + " bytes):\n" + head);
        }
    }

    /** (1) The plaintext benchmark's head: one field of the handler's ({@code Content-Type}). */
    @Benchmark
    public long minimalHead() throws IOException {
        return writeHead(minimal, PLAINTEXT_LENGTH);
    }

    /** (2) A browser-facing HTML page: 10 fields of the handler's, two of them {@code Set-Cookie}. */
    @Benchmark
    public long browserHead() throws IOException {
        return writeHead(browser, PAGE_LENGTH);
    }

    private long writeHead(Headers headers, long length) throws IOException {
        int handlerFields = ResponseFields.validate(headers);
        ResponseFraming framing = ResponseFraming.of("GET", 200, length, handlerFields, config.serverHeader());
        ResponseHeadWriter.write(out, 200, headers, framing, false, "");
        out.flush();
        return sink.takeCount();
    }

    /** Counts what the output flushes; keeps the last write's bytes as text until {@code last} is set to null. */
    static final class Sink extends OutputStream {
        private long count;
        String last = "";

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
            if (last != null) {
                last = new String(b, off, len, StandardCharsets.ISO_8859_1);
            }
        }

        long takeCount() {
            long n = count;
            count = 0;
            return n;
        }
    }
}
