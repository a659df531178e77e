package dev.weft.httpserver.websocket;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;

/** The server's side of the HTTP/1.1 opening handshake (RFC 6455 §4.2.1 and §4.2.2). */
final class Rfc6455Handshake {

    /** §1.3: the GUID appended to the key before hashing. */
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private Rfc6455Handshake() {
    }

    /** Whether the request asks for a WebSocket upgrade at all ({@code Upgrade} lists {@code websocket}). */
    static boolean isAttempt(HttpExchange exchange) {
        return OpeningRequest.hasToken(exchange.getRequestHeaders(), "Upgrade", "websocket");
    }

    /**
     * Checks an HTTP/1.x request that {@link #isAttempt asks to upgrade}, in the order of §4.2.1.
     *
     * @throws HandshakeRejection {@code 400} for a malformed handshake, {@code 426} with
     *                            {@code Sec-WebSocket-Version: 13} for another version
     */
    static OpeningRequest check(HttpExchange exchange) throws HandshakeRejection {
        Headers h = exchange.getRequestHeaders();
        // §4.2.1 item 1: "An HTTP/1.1 or higher GET request"
        if (!exchange.getRequestMethod().equals("GET")) {
            throw new HandshakeRejection(400, "a WebSocket opening handshake is a GET request");
        }
        if (!exchange.getProtocol().equals("HTTP/1.1")) {
            throw new HandshakeRejection(400, "a WebSocket opening handshake needs HTTP/1.1");
        }
        // item 2: Host (the HTTP/1.1 parser already requires one)
        if (h.getFirst("Host") == null) {
            throw new HandshakeRejection(400, "missing Host");
        }
        // item 4: Connection including the "Upgrade" token
        if (!OpeningRequest.hasToken(h, "Connection", "upgrade")) {
            throw new HandshakeRejection(400, "Connection must include the upgrade token");
        }
        // item 6 before 5: an unsupported version is answered with the versions we speak (§4.4)
        List<String> versions = h.get("Sec-WebSocket-Version");
        if (versions == null || versions.size() != 1 || !versions.get(0).strip().equals("13")) {
            throw new HandshakeRejection(426, "only WebSocket version 13 is supported",
                    "Sec-WebSocket-Version", "13");
        }
        // item 5: "a base64-encoded value that, when decoded, is 16 bytes in length"
        List<String> keys = h.get("Sec-WebSocket-Key");
        if (keys == null || keys.size() != 1 || !isValidKey(keys.get(0).strip())) {
            throw new HandshakeRejection(400, "Sec-WebSocket-Key must be the base64 encoding of 16 bytes");
        }
        return new OpeningRequest(exchange, false, keys.get(0).strip());
    }

    static boolean isValidKey(String key) {
        if (key.length() != 24) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(key).length == 16;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** §4.2.2 step 5.4: base64 of the SHA-1 of the key and the GUID. */
    static String acceptValue(String key) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] digest = sha1.digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is a required JDK algorithm", e);
        }
    }
}
