package dev.weft.spring.boot.servlet.mvc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static dev.weft.spring.boot.StreamingStops.logOfStopsWhileStreaming;
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
        String log = logOfStopsWhileStreaming(() -> new SpringApplicationBuilder(MvcTestApplication.class), output);
        assertThat(log.lines().filter(l -> l.contains(" WARN ") || l.contains(" ERROR ")))
                .as("WARN or ERROR lines once the streams ran").isEmpty();
    }
}
