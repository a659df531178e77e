package dev.weft.websocket.jakarta.container;

import org.junit.jupiter.api.Test;

import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Subprotocol negotiation of the default configurator, with the lists callers such as Spring pass. */
class DefaultConfiguratorTest {

    private final DefaultConfigurator configurator = new DefaultConfigurator();

    @Test
    void theFirstSupportedSubprotocolTheClientOfferedIsChosen() {
        assertEquals("v12.stomp", configurator.getNegotiatedSubprotocol(List.of("v12.stomp", "v11.stomp"),
                List.of("v10.stomp", "v11.stomp", "v12.stomp")));
    }

    @Test
    void aNullSupportedSubprotocolNegotiatesNoneEvenAgainstAnImmutableRequestList() {
        // Spring's standard upgrade strategy lists null when the client asked for no subprotocol
        assertEquals("", configurator.getNegotiatedSubprotocol(Collections.singletonList(null), List.of()));
        assertEquals("", configurator.getNegotiatedSubprotocol(Collections.singletonList(null), List.of("chat")));
    }
}
