package dev.weft.bench.engine;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Vert.x peer of bench/run-latency.sh: Vert.x 5 core {@code HttpServer} (no vertx-web), the request handler
 * inline on the event loop, report included.
 *
 * <p>One verticle instance per available processor, each with its own {@code HttpServer} on the same
 * host and port (Vert.x shares the listening socket between them and spreads the connections over their
 * event loops): what Vert.x's documentation recommends to use every core and what Vert.x benchmarks deploy.
 * With a single instance, only one event loop would serve HTTP whatever the machine. Everything else is
 * Vert.x's default: NIO transport, {@code TCP_NODELAY} on ({@code TCPSSLOptions.DEFAULT_TCP_NO_DELAY} is
 * true), event loop pool of 2 x CPUs; only the host (127.0.0.1) and the backlog (1024, like the other peers)
 * are set.
 *
 * <p>Usage: {@code java -cp target/classes:target/lib/* dev.weft.bench.engine.VertxServer PORT}; prints
 * {@code ready <HttpServer class> <port>} once every instance listens.
 */
public final class VertxServer extends VerticleBase {

    private static final String TEXT_PLAIN = "text/plain";
    private static volatile String serverClass = "?";

    private final int port;

    private VertxServer(int port) {
        this.port = port;
    }

    public static void main(String[] args) throws InterruptedException, ExecutionException, TimeoutException {
        int port = Integer.parseInt(args[0]);
        int instances = Runtime.getRuntime().availableProcessors();
        Vertx vertx = Vertx.vertx();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                vertx.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
            } catch (Exception e) {
                // exiting anyway
            }
        }, "vertx-shutdown"));
        vertx.deployVerticle(() -> new VertxServer(port), new DeploymentOptions().setInstances(instances))
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        System.err.println(instances + " verticle instances deployed");
        System.out.println("ready " + serverClass + " " + port);
        System.out.flush();
    }

    @Override
    public Future<?> start() {
        HttpServerOptions options = new HttpServerOptions().setAcceptBacklog(1024);
        return vertx.createHttpServer(options)
                .requestHandler(VertxServer::handle)
                .listen(port, "127.0.0.1")
                .onSuccess(server -> serverClass = server.getClass().getName());
    }

    private static void handle(HttpServerRequest request) {
        String path = request.path();
        if (!path.equals("/plaintext") && !path.equals("/api/report")) {
            send(request, 404, TEXT_PLAIN, new byte[0]);
        } else if (request.method() != HttpMethod.GET) {
            request.response().putHeader("Allow", "GET");
            send(request, 405, TEXT_PLAIN, new byte[0]);
        } else if (path.equals("/plaintext")) {
            send(request, 200, TEXT_PLAIN, Report.HELLO);
        } else {
            int size = Report.parseSize(request.getParam("size"));
            if (size < 0) {
                send(request, 400, TEXT_PLAIN,
                        ("size must be 1.." + Report.MAX_SIZE + "\n").getBytes(StandardCharsets.US_ASCII));
            } else {
                send(request, 200, Report.CONTENT_TYPE, Report.json(size));
            }
        }
    }

    /** Vert.x sets Content-Length itself when the whole body is given to end(). */
    private static void send(HttpServerRequest request, int status, String contentType, byte[] body) {
        request.response()
                .setStatusCode(status)
                .putHeader("Content-Type", contentType)
                .end(Buffer.buffer(body));
    }
}
