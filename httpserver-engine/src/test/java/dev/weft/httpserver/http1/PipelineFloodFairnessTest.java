package dev.weft.httpserver.http1;

import dev.weft.httpserver.testing.Await;
import dev.weft.httpserver.testing.RawHttpClient;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client that keeps its connection's input full of pipelined requests never makes the connection's thread
 * wait for a read, and virtual threads are not preempted: without a bound on the requests a connection serves
 * back to back, a few such clients (one per carrier thread) hold every carrier and nobody else is answered.
 */
@Timeout(60)
class PipelineFloodFairnessTest {

    private static final Duration PROBE_WAIT = Duration.ofSeconds(5);

    private final List<Flood> floods = new ArrayList<>();
    private TestServer server;

    @AfterEach
    void stop() {
        floods.forEach(Flood::close);
        if (server != null) {
            server.close();
        }
    }

    @Test
    void clientsThatNeverStopPipeliningDoNotKeepOtherConnectionsWaiting() throws Exception {
        server = TestServer.builder().handle("/", exchange -> TestServer.respond(exchange, 200, "ok")).start();
        int carriers = Runtime.getRuntime().availableProcessors();
        for (int i = 0; i <= carriers; i++) {
            floods.add(new Flood(server.port()));
        }
        Await.until("every flooding client to be answered", () -> floods.stream().allMatch(f -> f.received() > 0));

        for (int probe = 0; probe < 5; probe++) {
            try (RawHttpClient client = RawHttpClient.connect(server.port(), PROBE_WAIT)) {
                RawHttpClient.Response response = client.send(RawHttpClient.get("/probe")).readResponse();

                assertEquals(200, response.status());
            }
        }
        assertTrue(floods.stream().allMatch(Flood::isFlooding), "every flooding client kept on while the probes ran");
    }

    /** One connection that sends pipelined GETs without pause and reads the responses as fast as they come. */
    private static final class Flood implements AutoCloseable {

        private static final byte[] BATCH = "GET /flood HTTP/1.1\r\nHost: a\r\n\r\n".repeat(512)
                .getBytes(StandardCharsets.US_ASCII);

        private final Socket socket = new Socket();
        private final AtomicLong received = new AtomicLong();
        private final Thread writer;
        private final Thread reader;

        Flood(int port) throws IOException {
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            writer = Thread.ofPlatform().daemon().name("flood-writer").start(this::write);
            reader = Thread.ofPlatform().daemon().name("flood-reader").start(this::read);
        }

        long received() {
            return received.get();
        }

        /** Whether it is still sending and receiving: neither side has seen the connection end. */
        boolean isFlooding() {
            return writer.isAlive() && reader.isAlive();
        }

        private void write() {
            try {
                OutputStream out = socket.getOutputStream();
                while (!socket.isClosed()) {
                    out.write(BATCH);
                }
            } catch (IOException closed) {
                // the connection ended: isFlooding() reports it
            }
        }

        private void read() {
            byte[] buffer = new byte[1 << 16];
            try {
                InputStream in = socket.getInputStream();
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    received.addAndGet(n);
                }
            } catch (IOException closed) {
                // the connection ended: isFlooding() reports it
            }
        }

        @Override
        public void close() {
            try {
                socket.close();
                writer.join(Duration.ofSeconds(5));
                reader.join(Duration.ofSeconds(5));
            } catch (IOException | InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }
}
