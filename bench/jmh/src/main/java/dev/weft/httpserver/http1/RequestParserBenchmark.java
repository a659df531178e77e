package dev.weft.httpserver.http1;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.ConnectionInput;
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

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * Cost of {@link RequestParser#parse} per request head, from bytes already read off the socket to a validated
 * {@link RequestHead} with its {@code Headers}.
 *
 * <p>In the same package as the parser (package-private); that works because the benchmarks run on the class
 * path. Each scenario reads from one {@link ConnectionInput}, as a keep-alive connection does, over a stream that
 * replays the same bytes for ever: every {@code fill()} gets one copy of the scenario's bytes, so the single-request
 * scenarios pay one fill per request and the pipelined one pays one fill per 16 requests, as with the real socket.
 * Scores are nanoseconds per request (the pipelined score is the batch time divided by 16).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@State(Scope.Thread)
public class RequestParserBenchmark {

    /** A browser's navigation request: 11 header fields, 580 bytes. */
    static final String BROWSER_GET = "GET /articles/2024/http-parsing?page=2&sort=recent HTTP/1.1\r\n"
            + "Host: www.example.com\r\n"
            + "User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0\r\n"
            + "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8\r\n"
            + "Accept-Language: en-US,en;q=0.5\r\n"
            + "Accept-Encoding: gzip, deflate, br, zstd\r\n"
            + "Referer: https://www.example.com/articles/2024\r\n"
            + "Connection: keep-alive\r\n"
            + "Cookie: session=4f9c2d1e8b7a6f5e4d3c2b1a09f8e7d6; theme=dark; consent=analytics%3Dno\r\n"
            + "Upgrade-Insecure-Requests: 1\r\n"
            + "Sec-Fetch-Dest: document\r\n"
            + "Sec-Fetch-Mode: navigate\r\n"
            + "\r\n";

    /** What wrk sends for the plaintext benchmark. */
    static final String MINIMAL_GET = "GET /plaintext HTTP/1.1\r\nHost: x\r\n\r\n";

    static final int PIPELINE_DEPTH = 16;

    private RequestParser parser;
    private ConnectionInput browser;
    private ConnectionInput minimal;
    private ConnectionInput pipelined;

    @Setup
    public void setUp() throws IOException, BadRequestException {
        ServerConfig config = ServerConfig.defaults();
        parser = new RequestParser(config);
        browser = input(BROWSER_GET, config);
        minimal = input(MINIMAL_GET, config);
        pipelined = input(MINIMAL_GET.repeat(PIPELINE_DEPTH), config);
        // Fail fast if a scenario would measure the error path instead of a successful parse.
        check(parser.parse(browser), "/articles/2024/http-parsing?page=2&sort=recent", 11);
        check(parser.parse(minimal), "/plaintext", 1);
        for (int i = 0; i < PIPELINE_DEPTH; i++) {
            check(parser.parse(pipelined), "/plaintext", 1);
        }
    }

    private static ConnectionInput input(String request, ServerConfig config) {
        int max = Math.max(config.maxRequestLineLength(), config.maxHeaderSize()) + 64;
        ConnectionInput in = new ConnectionInput(new Replay(request.getBytes(StandardCharsets.ISO_8859_1)), 8 * 1024, max);
        in.readTimeout(Integer.MAX_VALUE);
        return in;
    }

    private static void check(RequestHead head, String target, int fields) {
        if (head == null || !head.target().equals(target) || head.headers().size() != fields || !head.keepAlive()) {
            throw new IllegalStateException("unexpected parse result: " + head);
        }
    }

    /** (1) A typical browser GET with 11 header fields. */
    @Benchmark
    public Object browserGet() throws IOException, BadRequestException {
        return parser.parse(browser);
    }

    /** (2) The minimal wrk-style GET. */
    @Benchmark
    public Object minimalGet() throws IOException, BadRequestException {
        return parser.parse(minimal);
    }

    /** (3) 16 pipelined minimal GETs parsed from one buffer; the score is per request. */
    @Benchmark
    @OperationsPerInvocation(PIPELINE_DEPTH)
    public void pipelined16(Blackhole bh) throws IOException, BadRequestException {
        for (int i = 0; i < PIPELINE_DEPTH; i++) {
            bh.consume(parser.parse(pipelined));
        }
    }

    /** Hands out {@code data} again and again, never more than one copy (up to its end) per read. */
    static final class Replay extends InputStream {
        private final byte[] data;
        private int pos;

        Replay(byte[] data) {
            this.data = data;
        }

        @Override
        public int read() {
            int b = data[pos] & 0xff;
            pos = pos + 1 == data.length ? 0 : pos + 1;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            int n = Math.min(len, data.length - pos);
            System.arraycopy(data, pos, b, off, n);
            pos += n;
            if (pos == data.length) {
                pos = 0;
            }
            return n;
        }
    }
}
