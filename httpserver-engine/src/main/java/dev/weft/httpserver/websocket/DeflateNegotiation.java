package dev.weft.httpserver.websocket;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Chooses the permessage-deflate configuration (RFC 7692 §5 and §7.1) from a client's offers: the first
 * offer the server can accept wins, malformed ones are declined.
 *
 * <p>{@code server_max_window_bits=N} is accepted and echoed for every valid N (8–15). {@code java.util.zip.Deflater}
 * always uses a 32 KiB window and cannot be told otherwise, so below 15 the codec keeps to the smaller window
 * another way: it compresses only messages of at most 2^N bytes, each with a fresh compressor, so no
 * back-reference can reach further than the message itself; larger messages, and messages sent in parts, go out
 * uncompressed (§6: compression is chosen per message). {@code client_max_window_bits} is always acceptable:
 * our inflater reads any window up to 32 KiB.
 */
final class DeflateNegotiation {

    static final String NAME = "permessage-deflate";

    /**
     * An accepted offer.
     *
     * @param serverNoContextTakeover reset our compressor after each message
     * @param clientNoContextTakeover the client resets its compressor after each message (so do we)
     * @param serverMaxWindowBits     the largest LZ77 window our compressed messages may need, 8–15
     * @param response                the element for {@code Sec-WebSocket-Extensions} in the response
     */
    record Agreement(boolean serverNoContextTakeover, boolean clientNoContextTakeover, int serverMaxWindowBits,
                     String response) {
    }

    private DeflateNegotiation() {
    }

    /** The agreement for the first acceptable permessage-deflate offer, or {@code null} for none. */
    static Agreement negotiate(List<ExtensionOffers.Offer> offers) {
        for (ExtensionOffers.Offer offer : offers) {
            if (offer.name().equalsIgnoreCase(NAME)) {
                Agreement a = accept(offer.params());
                if (a != null) {
                    return a;
                }
            }
        }
        return null;
    }

    /** The agreement for one offer, or {@code null} if §7 requires or allows us to decline it. */
    static Agreement accept(List<ExtensionOffers.Param> params) {
        Set<String> seen = new HashSet<>();
        boolean serverNoTakeover = false;
        boolean clientNoTakeover = false;
        int serverBits = 0;
        for (ExtensionOffers.Param p : params) {
            String name = p.name().toLowerCase(java.util.Locale.ROOT);
            // §7: decline an offer with "multiple extension parameters with the same name"
            if (!seen.add(name)) {
                return null;
            }
            switch (name) {
                case "server_no_context_takeover" -> {
                    if (p.value() != null) {
                        return null;
                    }
                    serverNoTakeover = true;
                }
                case "client_no_context_takeover" -> {
                    if (p.value() != null) {
                        return null;
                    }
                    clientNoTakeover = true;
                }
                case "server_max_window_bits" -> {
                    Integer bits = windowBits(p.value());
                    // §7.1.2.1: a value is required in an offer.
                    if (bits == null) {
                        return null;
                    }
                    serverBits = bits;
                }
                case "client_max_window_bits" -> {
                    if (p.value() != null && windowBits(p.value()) == null) {
                        return null;
                    }
                }
                default -> {
                    // §7: "an extension parameter not defined for use in an offer"
                    return null;
                }
            }
        }
        StringBuilder r = new StringBuilder(NAME);
        if (serverNoTakeover) {
            r.append("; server_no_context_takeover");
        }
        if (clientNoTakeover) {
            r.append("; client_no_context_takeover");
        }
        if (serverBits != 0) {
            // §7.1.2.1: the response MUST then carry server_max_window_bits with an equal or smaller value.
            r.append("; server_max_window_bits=").append(serverBits);
        }
        return new Agreement(serverNoTakeover, clientNoTakeover, serverBits == 0 ? 15 : serverBits, r.toString());
    }

    /** §7.1.2: a window size is 1*DIGIT in 8..15 without leading zeros; null when it is not. */
    private static Integer windowBits(String value) {
        if (value == null || value.isEmpty() || value.length() > 2 || value.charAt(0) == '0') {
            return null;
        }
        for (int k = 0; k < value.length(); k++) {
            if (value.charAt(k) < '0' || value.charAt(k) > '9') {
                return null;
            }
        }
        int bits = Integer.parseInt(value);
        return bits >= 8 && bits <= 15 ? bits : null;
    }
}
