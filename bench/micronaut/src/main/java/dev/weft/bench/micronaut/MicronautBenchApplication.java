package dev.weft.bench.micronaut;

import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.runtime.Micronaut;
import io.micronaut.runtime.event.annotation.EventListener;
import io.micronaut.runtime.server.EmbeddedServer;
import io.micronaut.runtime.server.event.ServerStartupEvent;
import io.micronaut.serde.annotation.Serdeable;
import jakarta.inject.Singleton;

/**
 * The Micronaut "plaintext" and "json" app of {@code bench/run-micronaut.sh}.
 *
 * <p>The same source is compiled by {@code bench/micronaut/weft} (weft-micronaut) and {@code bench/micronaut/netty}
 * (micronaut-http-server-netty); only the embedded server on the class path differs. Once the server listens, the
 * app prints one line {@code ready <embedded server class> <port>} on stdout so the harness can check that the
 * intended server is the one being measured.
 */
public final class MicronautBenchApplication {

    private MicronautBenchApplication() {
    }

    /** Starts the app; {@code -Dmicronaut.server.port=PORT} picks the port. */
    public static void main(String[] args) {
        Micronaut.build(args).mainClass(MicronautBenchApplication.class).banner(false).start();
    }

    /** Prints the ready line (the app logs at WARN only, so Micronaut's own "Server Running" is silent). */
    @Singleton
    static class ReadyLine {

        @EventListener
        void started(ServerStartupEvent event) {
            EmbeddedServer server = event.getSource();
            System.out.println("ready " + server.getClass().getName() + " " + server.getPort());
            System.out.flush();
        }
    }

    /** The two endpoints: a fixed text, and a small object serialized to JSON (micronaut-serde) on each request. */
    @Controller
    static class BenchController {

        private static final String BODY = "Hello, World!";

        @Get(value = "/plaintext", produces = MediaType.TEXT_PLAIN)
        String plaintext() {
            return BODY;
        }

        @Get(value = "/json", produces = MediaType.APPLICATION_JSON)
        Message json() {
            return new Message(BODY);
        }
    }

    /** The JSON body: {@code {"message":"Hello, World!"}}. */
    @Serdeable
    record Message(String message) {
    }
}
