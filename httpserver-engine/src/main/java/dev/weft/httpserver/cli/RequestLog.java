package dev.weft.httpserver.cli;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.accesslog.LogEntry;
import dev.weft.httpserver.accesslog.LogPattern;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * The {@code -o info} and {@code -o verbose} output of the command-line server: after each exchange, one line
 * in common log format ({@code client - - [time] "request line" status -}); verbose adds the file requested and
 * the request and response header fields. Each exchange's output is printed at once, so lines of concurrent
 * exchanges do not interleave. Thread-safe.
 */
final class RequestLog extends Filter {

    private static final LogPattern COMMON = LogPattern.compile(LogPattern.COMMON);

    private final PrintStream out;
    private final boolean verbose;

    RequestLog(PrintStream out, boolean verbose) {
        this.out = out;
        this.verbose = verbose;
    }

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
        long start = System.nanoTime();
        try {
            chain.doFilter(exchange);
        } finally {
            StringBuilder b = new StringBuilder(128);
            b.append(COMMON.format(LogEntry.endingNow(exchange.getRemoteAddress(), exchange.getLocalAddress(), null,
                    exchange.getRequestMethod(), exchange.getRequestURI().toASCIIString(), exchange.getProtocol(),
                    exchange.getResponseCode(), -1, start, exchange.getRequestHeaders(), null)));
            if (verbose) {
                b.append('\n');
                headers(b, "> ", exchange.getRequestHeaders());
                b.append(">\n");
                headers(b, "< ", exchange.getResponseHeaders());
                b.append('<');
            }
            out.println(b);
        }
    }

    private static void headers(StringBuilder b, String prefix, Headers headers) {
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            for (String v : e.getValue()) {
                b.append(prefix).append(e.getKey()).append(": ").append(v).append('\n');
            }
        }
    }

    @Override
    public String description() {
        return verbose ? "verbose request log" : "request log";
    }
}
