package dev.weft.demo;

import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.stats.ProtocolError;
import dev.weft.httpserver.stats.StatsSnapshot;
import dev.weft.spring.boot.WeftWebServer;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.stereotype.Component;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;

/** Reads the statistics of the Weft server this application runs on. */
@Component
public class ServerStatistics {

    private final ApplicationContext context;
    private final Instant started = Instant.now();

    ServerStatistics(ApplicationContext context) {
        this.context = context;
    }

    /** The current statistics, or empty ones while the server is not (yet) a running Weft server. */
    public LiveStats current() {
        HttpServer server = weftServer();
        if (server == null) {
            return LiveStats.unavailable(started);
        }
        return LiveStats.of(Weft.stats(server), started);
    }

    private HttpServer weftServer() {
        if (context instanceof WebServerApplicationContext web) {
            WebServer webServer = web.getWebServer();
            if (webServer instanceof WeftWebServer weft) {
                HttpServer engine = weft.getServer();
                if (engine != null && Weft.isWeft(engine)) {
                    return engine;
                }
            }
        }
        return null;
    }

    /**
     * The statistics as sent to the page.
     *
     * @param available      whether the server is a running Weft server
     * @param time           when the numbers were read (epoch milliseconds)
     * @param uptimeSeconds  seconds since the application started
     * @param protocolErrors rejected requests by kind (only kinds seen)
     * @param http2          HTTP/2 connection and stream counters
     * @param webSocket      WebSocket session and message counters
     */
    public record LiveStats(
            boolean available,
            long time,
            long uptimeSeconds,
            long connectionsActive,
            long connectionsAccepted,
            long connectionsRejected,
            long exchangesActive,
            long requests,
            long bytesReceived,
            long bytesSent,
            long handlerExceptions,
            long idleCloses,
            long timeoutCloses,
            Map<String, Long> protocolErrors,
            StatsSnapshot.Http2 http2,
            StatsSnapshot.WebSocket webSocket) {

        static LiveStats of(StatsSnapshot s, Instant started) {
            Map<String, Long> errors = new TreeMap<>();
            for (Map.Entry<ProtocolError, Long> e : s.protocolErrors().entrySet()) {
                errors.put(e.getKey().key(), e.getValue());
            }
            return new LiveStats(true, s.time().toEpochMilli(), uptime(started), s.connectionsActive(),
                    s.connectionsAccepted(), s.connectionsRejected(), s.exchangesActive(), s.requests(),
                    s.bytesReceived(), s.bytesSent(), s.handlerExceptions(), s.idleCloses(), s.timeoutCloses(),
                    errors, s.http2(), s.webSocket());
        }

        static LiveStats unavailable(Instant started) {
            return new LiveStats(false, System.currentTimeMillis(), uptime(started), 0, 0, 0, 0, 0, 0, 0, 0, 0,
                    0, Map.of(), StatsSnapshot.Http2.NONE, StatsSnapshot.WebSocket.NONE);
        }

        private static long uptime(Instant started) {
            return Duration.between(started, Instant.now()).toSeconds();
        }
    }
}
