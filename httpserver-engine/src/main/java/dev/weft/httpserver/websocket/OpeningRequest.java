package dev.weft.httpserver.websocket;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A checked opening handshake of either protocol (made by {@link Rfc6455Handshake} or
 * {@link Rfc8441Handshake}), as the listener factory sees it, and what answers it.
 */
final class OpeningRequest implements WebSocketHandshake {

    private final HttpExchange exchange;
    private final boolean http2;
    /** {@code Sec-WebSocket-Key} (HTTP/1.1 only), or null. */
    private final String key;
    private final String origin;
    private final List<String> requested;
    private final List<ExtensionOffers.Offer> extensionOffers;
    private String selected;

    OpeningRequest(HttpExchange exchange, boolean http2, String key) {
        this.exchange = exchange;
        this.http2 = http2;
        this.key = key;
        Headers h = exchange.getRequestHeaders();
        this.origin = h.getFirst("Origin");
        this.requested = List.copyOf(commaList(h.get("Sec-WebSocket-Protocol")));
        this.extensionOffers = ExtensionOffers.parse(h.get("Sec-WebSocket-Extensions"));
    }

    @Override
    public HttpExchange exchange() {
        return exchange;
    }

    @Override
    public String origin() {
        return origin;
    }

    @Override
    public List<String> requestedSubprotocols() {
        return requested;
    }

    @Override
    public String subprotocol() {
        return selected;
    }

    @Override
    public void selectSubprotocol(String subprotocol) {
        if (subprotocol != null && !requested.contains(subprotocol)) {
            throw new IllegalArgumentException("the client did not offer subprotocol " + subprotocol);
        }
        selected = subprotocol;
    }

    /** Preselects the first of {@code supported} that the client offered (RFC 6455 §4.2.2 step 5.4). */
    void preselect(List<String> supported) {
        for (String s : supported) {
            if (requested.contains(s)) {
                selected = s;
                return;
            }
        }
    }

    boolean http2() {
        return http2;
    }

    List<ExtensionOffers.Offer> extensionOffers() {
        return extensionOffers;
    }

    /**
     * Sends the response that opens the session: {@code 101} with {@code Sec-WebSocket-Accept} over
     * HTTP/1.1, {@code 200} over HTTP/2 (RFC 8441 §5); afterwards the exchange's streams carry frames.
     *
     * @param extensions the {@code Sec-WebSocket-Extensions} value, or null
     */
    void answer(String extensions) throws IOException {
        Headers r = exchange.getResponseHeaders();
        if (selected != null) {
            r.set("Sec-WebSocket-Protocol", selected);
        }
        if (extensions != null) {
            r.set("Sec-WebSocket-Extensions", extensions);
        }
        if (http2) {
            exchange.sendResponseHeaders(200, 0);
        } else {
            r.set("Upgrade", "websocket");
            r.set("Connection", "Upgrade");
            r.set("Sec-WebSocket-Accept", Rfc6455Handshake.acceptValue(key));
            exchange.sendResponseHeaders(101, 0);
        }
    }

    /** The comma-separated elements of all field lines, trimmed, without empty ones. */
    static List<String> commaList(List<String> values) {
        List<String> out = new ArrayList<>();
        if (values != null) {
            for (String v : values) {
                for (String part : v.split(",")) {
                    String t = part.strip();
                    if (!t.isEmpty()) {
                        out.add(t);
                    }
                }
            }
        }
        return out;
    }

    /** Whether the comma-separated field {@code name} contains {@code token}, ignoring case. */
    static boolean hasToken(Headers h, String name, String token) {
        for (String t : commaList(h.get(name))) {
            if (t.toLowerCase(Locale.ROOT).equals(token)) {
                return true;
            }
        }
        return false;
    }
}
