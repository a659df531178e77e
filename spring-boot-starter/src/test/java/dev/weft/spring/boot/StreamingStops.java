package dev.weft.spring.boot;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stops an application while three responses of its {@code GET /ticks} stream are flowing, once with
 * {@code server.shutdown=immediate} and once with {@code graceful} (a one-second phase), for the tests that
 * prove a stop is logged as our own doing.
 */
public final class StreamingStops {

    private StreamingStops() {
    }

    /**
     * Runs an application from {@code application} twice (immediate, then graceful stop), each time stopping it with streams open.
     *
     * @return what was logged from the moment the streams ran to the end of each stop
     */
    public static String logOfStopsWhileStreaming(Supplier<SpringApplicationBuilder> application,
            CapturedOutput output)
            throws IOException {
        StringBuilder afterStart = new StringBuilder();
        for (String shutdown : List.of("immediate", "graceful")) {
            ConfigurableApplicationContext context = application.get()
                    .properties("server.port=0", "spring.main.banner-mode=off", "server.shutdown=" + shutdown,
                            "spring.lifecycle.timeout-per-shutdown-phase=1s")
                    .run();
            int port = ((WebServerApplicationContext) context).getWebServer().getPort();
            List<Socket> streams = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    Socket s = new Socket("127.0.0.1", port);
                    streams.add(s);
                    s.getOutputStream().write("GET /ticks HTTP/1.1\r\nHost: localhost\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    readUntil(s.getInputStream(), "tick 1");
                }
                int mark = output.getAll().length(); // what start-up logged is not the stop's doing
                context.close(); // cuts the streams: at once, or after the graceful phase's second
                afterStart.append(output.getAll().substring(mark));
            } finally {
                for (Socket s : streams) {
                    s.close();
                }
            }
            assertThat(context.isActive()).isFalse();
        }
        return afterStart.toString();
    }

    /** Reads the stream until {@code text} has come (the response head has been sent, the body is flowing). */
    private static void readUntil(InputStream in, String text) throws IOException {
        StringBuilder seen = new StringBuilder();
        while (!seen.toString().contains(text)) {
            int b = in.read();
            if (b < 0) {
                throw new EOFException("stream ended before '" + text + "': " + seen);
            }
            seen.append((char) b);
        }
    }
}
