package dev.weft.httpserver.core;

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

import java.util.concurrent.TimeUnit;

/**
 * Cost of an application's lookup in a request's fields ({@code getFirst}, {@code containsKey}), as frameworks make
 * several per request: the name as applications spell it ({@code Content-Length}), all in lower case, in the JDK's
 * key form, and an uncommon name. Scores are nanoseconds per lookup.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms512m", "-Xmx512m"})
@State(Scope.Thread)
public class RequestHeadersLookupBenchmark {

    private RequestHeaders fields;
    /** Names the benchmark's methods read from fields, so that the JIT cannot fold them into constants. */
    private String capitalised = "Content-Length";
    private String lowerCase = "content-type";
    private String keyForm = "Transfer-encoding";
    private String uncommon = "X-Trace-Parent";

    @Setup
    public void setUp() {
        fields = new RequestHeaders();
        fields.append("Host", "www.example.com");
        fields.append("Content-type", "application/json");
        fields.append("Content-length", "42");
        fields.append("Accept", "*/*");
        fields.append("X-trace-parent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
        fields.freeze();
    }

    @Benchmark
    public String capitalisedName() {
        return fields.getFirst(capitalised);
    }

    @Benchmark
    public String lowerCaseName() {
        return fields.getFirst(lowerCase);
    }

    @Benchmark
    public boolean keyFormName() {
        return fields.containsKey(keyForm);
    }

    @Benchmark
    public String uncommonName() {
        return fields.getFirst(uncommon);
    }
}
