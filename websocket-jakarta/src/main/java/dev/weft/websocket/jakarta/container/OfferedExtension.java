package dev.weft.websocket.jakarta.container;

import jakarta.websocket.Extension;

import java.util.ArrayList;
import java.util.List;

/**
 * An extension by name (its parameters are the engine's business: it negotiates permessage-deflate itself).
 *
 * @param getName the extension's name
 */
public record OfferedExtension(String getName) implements Extension {

    /** Most extensions read from one handshake. */
    private static final int MAX_OFFERS = 16;

    @Override
    public List<Parameter> getParameters() {
        return List.of();
    }

    /** The extensions of {@code Sec-WebSocket-Extensions} values, by name, in order. */
    static List<Extension> parse(List<String> headerValues) {
        List<Extension> out = new ArrayList<>();
        if (headerValues == null) {
            return out;
        }
        for (String value : headerValues) {
            for (String offer : value.split(",")) {
                String name = offer.split(";", 2)[0].strip();
                if (!name.isEmpty() && out.size() < MAX_OFFERS) {
                    out.add(new OfferedExtension(name));
                }
            }
        }
        return out;
    }
}
