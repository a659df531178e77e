package dev.weft.spring.boot.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static dev.weft.spring.boot.StreamingStops.logOfStopsWhileStreaming;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stopping a WebFlux application while responses are streaming is our own doing: the exchanges it cuts are
 * counted and logged at DEBUG, and nothing reaches WARN or ERROR.
 */
@Timeout(60)
@ExtendWith(OutputCaptureExtension.class)
class WeftStopLoggingTest {

    @Test
    void stoppingWithResponsesStreamingLogsNoWarningOrError(CapturedOutput output) throws Exception {
        String log = logOfStopsWhileStreaming(
                () -> new SpringApplicationBuilder(WeftTestApplication.class).web(WebApplicationType.REACTIVE),
                output);
        assertThat(log.lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")))
                .as("WARN or ERROR lines once the streams ran").isEmpty();
    }
}
