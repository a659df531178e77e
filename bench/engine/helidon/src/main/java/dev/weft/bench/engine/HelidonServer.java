package dev.weft.bench.engine;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;

import java.nio.charset.StandardCharsets;

/**
 * The Helidon peer of bench/run-latency.sh: Helidon SE 4.5 WebServer with its defaults (a virtual thread per
 * connection, handlers run on it), HTTP routing with the two GET routes.
 *
 * <p>Changed from the defaults: the host (127.0.0.1), the backlog (1024, like the other peers) and
 * {@code TCP_NODELAY}, which Helidon leaves off unless configured ({@code SocketOptions.tcpNoDelay()} defaults
 * to false) and which every other peer has on.
 *
 * <p>Usage: {@code java -cp target/classes:target/lib/* dev.weft.bench.engine.HelidonServer PORT}; prints
 * {@code ready <WebServer class> <port>} once it listens.
 */
public final class HelidonServer {

    private static final Header TEXT_PLAIN = HeaderValues.createCached(HeaderNames.CONTENT_TYPE, "text/plain");
    private static final Header JSON = HeaderValues.createCached(HeaderNames.CONTENT_TYPE, Report.CONTENT_TYPE);

    private HelidonServer() {
    }

    public static void main(String[] args) {
        int port = Integer.parseInt(args[0]);
        WebServer server = WebServer.builder()
                .host("127.0.0.1")
                .port(port)
                .backlog(1024)
                .connectionOptions(options -> options.tcpNoDelay(true))
                .routing(routing -> routing
                        .get("/plaintext", HelidonServer::plaintext)
                        .get("/api/report", HelidonServer::report))
                .build()
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "helidon-shutdown"));
        System.out.println("ready " + server.getClass().getName() + " " + server.port());
        System.out.flush();
    }

    private static void plaintext(ServerRequest request, ServerResponse response) {
        response.header(TEXT_PLAIN);
        response.send(Report.HELLO);
    }

    private static void report(ServerRequest request, ServerResponse response) {
        int size = Report.parseSize(request.query().first("size").asOptional().orElse(null));
        if (size < 0) {
            response.status(Status.BAD_REQUEST_400).header(TEXT_PLAIN)
                    .send(("size must be 1.." + Report.MAX_SIZE + "\n").getBytes(StandardCharsets.US_ASCII));
            return;
        }
        response.header(JSON);
        response.send(Report.json(size));
    }
}
