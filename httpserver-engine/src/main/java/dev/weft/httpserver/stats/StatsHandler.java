package dev.weft.httpserver.stats;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The opt-in statistics page: plain text by default, JSON with {@code ?format=json} or
 * {@code Accept: application/json}. GET and HEAD only.
 */
public final class StatsHandler implements HttpHandler {

    private final Supplier<StatsSnapshot> stats;

    public StatsHandler(Supplier<StatsSnapshot> stats) {
        this.stats = stats;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        String method = exchange.getRequestMethod();
        if (!method.equals("GET") && !method.equals("HEAD")) {
            exchange.getResponseHeaders().set("Allow", "GET, HEAD");
            exchange.sendResponseHeaders(405, -1);
            return;
        }
        String query = exchange.getRequestURI().getRawQuery();
        String accept = exchange.getRequestHeaders().getFirst("Accept");
        boolean json = query != null && query.contains("format=json")
                || accept != null && accept.contains("application/json");
        StatsSnapshot s = stats.get();
        byte[] body = (json ? json(s) : text(s)).getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type",
                json ? "application/json" : "text/plain; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    private static Map<String, Long> counters(StatsSnapshot s) {
        var m = new java.util.LinkedHashMap<String, Long>();
        m.put("connections_accepted", s.connectionsAccepted());
        m.put("connections_active", s.connectionsActive());
        m.put("connections_rejected", s.connectionsRejected());
        m.put("requests", s.requests());
        m.put("exchanges_active", s.exchangesActive());
        m.put("bytes_received", s.bytesReceived());
        m.put("bytes_sent", s.bytesSent());
        m.put("bytes_sent_zero_copy", s.bytesSentZeroCopy());
        m.put("handler_exceptions", s.handlerExceptions());
        m.put("idle_closes", s.idleCloses());
        m.put("timeout_closes", s.timeoutCloses());
        m.put("low_resources_closes", s.lowResourcesCloses());
        m.put("stop_closes", s.stopCloses());
        m.put("access_log_lines_dropped", s.accessLogLinesDropped());
        StatsSnapshot.Http2 h2 = s.http2();
        m.put("http2_connections", h2.connections());
        m.put("http2_streams_opened", h2.streamsOpened());
        m.put("http2_streams_active", h2.streamsActive());
        m.put("http2_streams_reset", h2.streamsReset());
        m.put("http2_goaways_sent", h2.goAwaysSent());
        m.put("http2_goaways_received", h2.goAwaysReceived());
        StatsSnapshot.WebSocket ws = s.webSocket();
        m.put("websocket_sessions_opened", ws.sessionsOpened());
        m.put("websocket_sessions_over_http2", ws.sessionsOverHttp2());
        m.put("websocket_sessions_active", ws.sessionsActive());
        m.put("websocket_messages_received", ws.messagesReceived());
        m.put("websocket_messages_sent", ws.messagesSent());
        m.put("websocket_protocol_closes", ws.protocolCloses());
        StatsSnapshot.Proxy proxy = s.proxy();
        m.put("proxy_requests_forwarded", proxy.requestsForwarded());
        m.put("proxy_tunnels_opened", proxy.tunnelsOpened());
        m.put("proxy_tunnels_active", proxy.tunnelsActive());
        m.put("proxy_denied", proxy.denied());
        m.put("proxy_upstream_failures", proxy.upstreamFailures());
        m.put("proxy_tunnel_bytes", proxy.tunnelBytes());
        return m;
    }

    private static Map<String, Long> listenerCounters(StatsSnapshot.Listener l) {
        var m = new java.util.LinkedHashMap<String, Long>();
        m.put("connections_accepted", l.connectionsAccepted());
        m.put("connections_active", l.connectionsActive());
        m.put("requests", l.requests());
        return m;
    }

    static String text(StatsSnapshot s) {
        StringBuilder b = new StringBuilder("# Weft server statistics at ").append(s.time()).append('\n');
        counters(s).forEach((k, v) -> b.append(k).append(' ').append(v).append('\n'));
        s.protocolErrors().forEach((k, v) -> b.append("protocol_errors{kind=\"").append(k.key()).append("\"} ")
                .append(v).append('\n'));
        for (StatsSnapshot.Listener l : s.listeners()) {
            listenerCounters(l).forEach((k, v) -> b.append("listener_").append(k).append("{listener=\"")
                    .append(l.name()).append("\"} ").append(v).append('\n'));
        }
        return b.toString();
    }

    static String json(StatsSnapshot s) {
        StringBuilder b = new StringBuilder("{\"time\":\"").append(s.time()).append('"');
        counters(s).forEach((k, v) -> b.append(",\"").append(k).append("\":").append(v));
        b.append(",\"protocol_errors\":{");
        String sep = "";
        for (var e : s.protocolErrors().entrySet()) {
            b.append(sep).append('"').append(e.getKey().key()).append("\":").append(e.getValue());
            sep = ",";
        }
        b.append("},\"listeners\":[");
        sep = "";
        for (StatsSnapshot.Listener l : s.listeners()) {
            b.append(sep).append("{\"name\":\"").append(l.name()).append('"');
            listenerCounters(l).forEach((k, v) -> b.append(",\"").append(k).append("\":").append(v));
            b.append('}');
            sep = ",";
        }
        return b.append("]}").toString();
    }
}
