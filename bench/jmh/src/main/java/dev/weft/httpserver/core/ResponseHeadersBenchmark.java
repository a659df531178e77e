package dev.weft.httpserver.core;

import com.sun.net.httpserver.Headers;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Cost of a handler's response fields: a new exchange's headers and the fields a handler sets, with the JDK's
 * {@link Headers} (what every exchange had before) and with {@link ResponseHeaders}. Scores are nanoseconds per
 * response.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@State(Scope.Thread)
public class ResponseHeadersBenchmark {

    /** Names read from fields, so that the JIT cannot fold them into constants. */
    private String contentType = "Content-Type";
    private String cacheControl = "Cache-Control";
    private String custom = "X-Request-Trace";

    @Benchmark
    public Headers plaintextJdk() {
        return plaintext(new Headers());
    }

    @Benchmark
    public Headers plaintextWeft() {
        return plaintext(new ResponseHeaders());
    }

    @Benchmark
    public Headers threeFieldsJdk() {
        return threeFields(new Headers());
    }

    @Benchmark
    public Headers threeFieldsWeft() {
        return threeFields(new ResponseHeaders());
    }

    /** What bench/plaintext's handler sets. */
    private Headers plaintext(Headers h) {
        h.set(contentType, "text/plain");
        return h;
    }

    /** Two common fields and one that is not. */
    private Headers threeFields(Headers h) {
        h.set(contentType, "application/json");
        h.set(cacheControl, "no-store");
        h.add(custom, "4bf92f3577b34da6");
        return h;
    }
}
