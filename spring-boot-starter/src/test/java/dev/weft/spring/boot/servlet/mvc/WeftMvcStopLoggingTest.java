package dev.weft.spring.boot.servlet.mvc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.servlet.context.ServletWebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stopping a Spring MVC application on Weft while responses are streaming is our own doing: the exchanges it
 * cuts are counted and logged at DEBUG, and nothing reaches WARN or ERROR.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class WeftMvcStopLoggingTest {

    @Test
    void stoppingWithResponsesStreamingLogsNoWarningOrError(CapturedOutput output) throws Exception {
        StringBuilder afterStart = new StringBuilder();
        for (String shutdown : List.of("immediate", "graceful")) {
            ConfigurableApplicationContext context = new SpringApplicationBuilder(MvcTestApplication.class)
                    .properties("server.port=0", "spring.main.banner-mode=off", "server.shutdown=" + shutdown,
                            "spring.lifecycle.timeout-per-shutdown-phase=1s")
                    .run();
            int port = ((ServletWebServerApplicationContext) context).getWebServer().getPort();
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
        assertThat(afterStart.toString().lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")))
                .as("WARN or ERROR lines once the streams ran").isEmpty();
    }

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
