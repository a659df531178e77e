package dev.weft.httpserver.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import java.net.URI;
import java.util.List;

/**
 * Request paths that servers, proxies and file systems have read differently (a host in {@code //x}, dot-segments
 * plain or encoded, {@code %2F}, {@code ;} parameters, backslashes), with what Weft makes of each: the context
 * that serves it and what {@code getRequestURI()} says, or a {@code 400}. The same table runs over HTTP/1.1 and
 * HTTP/2 against {@link #CONTEXTS}, each served by {@link #reporter()}.
 */
public final class ConfusingPaths {

    /** The contexts the table assumes. */
    public static final List<String> CONTEXTS = List.of("/", "/actuator", "/a");

    /** What the server answers: {@link #reporter()}'s line, or {@code null} for a {@code 400}. */
    public record Case(String target, String report) {
        public int status() {
            return report == null ? 400 : 200;
        }

        @Override
        public String toString() {
            return target;
        }
    }

    private ConfusingPaths() {
    }

    /** Registers {@link #reporter()} on every context of {@link #CONTEXTS}. */
    public static void createContexts(HttpServer server) {
        CONTEXTS.forEach(path -> server.createContext(path, reporter()));
    }

    /**
     * Answers {@code 200} with one line: the context, then {@code getRequestURI()}'s raw path, decoded path,
     * authority and raw query.
     */
    public static HttpHandler reporter() {
        return exchange -> TestServer.respond(exchange, 200, report(exchange));
    }

    private static String report(HttpExchange exchange) {
        URI uri = exchange.getRequestURI();
        return line(exchange.getHttpContext().getPath(), uri.getRawPath(), uri.getPath(), uri.getRawAuthority(),
                uri.getRawQuery());
    }

    private static String line(String context, String rawPath, String path, String authority, String query) {
        return "context=" + context + " raw=" + rawPath + " path=" + path + " authority=" + authority
                + " query=" + query;
    }

    private static Case served(String target, String context, String path) {
        int q = target.indexOf('?');
        String rawPath = q < 0 ? target : target.substring(0, q);
        return new Case(target, line(context, rawPath, path, null, q < 0 ? null : target.substring(q + 1)));
    }

    private static Case served(String target, String context) {
        int q = target.indexOf('?');
        return served(target, context, q < 0 ? target : target.substring(0, q));
    }

    private static Case refused(String target) {
        return new Case(target, null);
    }

    /** Origin-form targets, valid in HTTP/1.1 and as HTTP/2 {@code :path}. */
    public static List<Case> originForm() {
        return List.of(
                served("/actuator/health", "/actuator"),
                // an empty first segment is a path, never a host
                served("//evil.example/actuator/health", "/"),
                served("//evil.example/actuator/health?x=1", "/"),
                served("//", "/"),
                served("//?x", "/"),
                served("///actuator", "/"),
                served("//actuator/health", "/"),
                served("/actuator//health", "/actuator"),
                served("//user@evil.example:8080/a", "/"),
                // decoded for matching, as getPath() gives it; %2F stays encoded in the raw path
                served("/%61ctuator/health", "/actuator", "/actuator/health"),
                served("/a%2Fb", "/a", "/a/b"),
                served("/a%2fb%2Factuator", "/a", "/a/b/actuator"),
                // a backslash is no separator
                served("/a%5Cb", "/", "/a\\b"),
                // ";" is an ordinary character: no path parameters are stripped
                served("/a;p=1/b", "/"),
                served("/actuator;p=1/health", "/"),
                served("/a/b;..", "/a"),
                // names that only look like dot-segments
                served("/a/...", "/a"),
                served("/a/.b", "/a"),
                served("/a/..b", "/a"),
                served("/a/b.", "/a"),
                served("/a/%2e%2e%2e", "/a", "/a/..."),
                served("/a?x=/../actuator", "/a"),
                // dot-segments, plain or encoded, before parameters, between encoded separators: refused
                refused("/a/../actuator"),
                refused("/a/./actuator"),
                refused("/.."),
                refused("/."),
                refused("/a/.."),
                refused("/a/."),
                refused("/a/..?x=1"),
                refused("//../actuator"),
                refused("/a/%2e%2e/actuator"),
                refused("/a/%2E%2E/actuator"),
                refused("/a/.%2e/actuator"),
                refused("/a/%2e./actuator"),
                refused("/a/%2e/actuator"),
                refused("/a/..;x=1/actuator"),
                refused("/a/..;/actuator"),
                refused("/a/.;/actuator"),
                refused("/a%2F..%2Factuator"),
                refused("/a%2f..%2factuator"),
                refused("/a%5C..%5Cactuator"),
                refused("/a%5c.%5cactuator"));
    }
}
