package dev.weft.mvcdemo;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/** The demo's JSON API and its server-sent-events stream. */
@RestController
@RequestMapping(path = "/api", produces = MediaType.APPLICATION_JSON_VALUE)
class ApiController {

    /**
     * What serves this request: the container, the protocol, TLS or not, and the counter of the caller's session
     * (0 without one; asking creates no session).
     */
    @GetMapping("/info")
    Map<String, Object> info(HttpServletRequest request) {
        HttpSession session = request.getSession(false);
        return Map.of(
                "server", request.getServletContext().getServerInfo(),
                "protocol", request.getProtocol(),
                "secure", request.isSecure(),
                "counter", session == null ? 0 : PageController.counter(session));
    }

    /** A note, echoed back with its length: JSON in, JSON out. */
    @PostMapping(path = "/notes", consumes = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> note(@RequestBody Note note) {
        String text = note.text() == null ? "" : note.text();
        String trimmed = text.strip();
        int words = trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
        return Map.of("text", text, "length", text.length(), "words", words);
    }

    /**
     * {@code count} ticks (at most 1000), one every {@code intervalMs} milliseconds (at least 10), as
     * server-sent events named {@code tick}; the stream ends after the last one.
     */
    @GetMapping(path = "/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter events(@RequestParam(defaultValue = "60") int count,
            @RequestParam(defaultValue = "1000") long intervalMs) {
        int ticks = Math.clamp(count, 1, 1000);
        Duration interval = Duration.ofMillis(Math.max(10, intervalMs));
        SseEmitter emitter = new SseEmitter(interval.multipliedBy(ticks + 5L).toMillis());
        Thread.ofVirtual().name("demo-ticks").start(() -> {
            try {
                for (int i = 1; i <= ticks; i++) {
                    emitter.send(SseEmitter.event().name("tick").id(Integer.toString(i))
                            .data(Map.of("n", i, "time", Instant.now().toString()), MediaType.APPLICATION_JSON));
                    if (i < ticks) {
                        Thread.sleep(interval);
                    }
                }
                emitter.complete();
            } catch (IOException | IllegalStateException e) {
                emitter.completeWithError(e); // the client went away
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                emitter.complete();
            }
        });
        return emitter;
    }

    /** A note of the JSON API. */
    record Note(String text) {
    }
}
