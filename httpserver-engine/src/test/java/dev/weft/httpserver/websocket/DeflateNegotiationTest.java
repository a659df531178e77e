package dev.weft.httpserver.websocket;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Parsing of Sec-WebSocket-Extensions (RFC 6455 §9.1) and the choice among permessage-deflate offers (RFC 7692 §7). */
class DeflateNegotiationTest {

    private static DeflateNegotiation.Agreement negotiate(String... fieldLines) {
        return DeflateNegotiation.negotiate(ExtensionOffers.parse(List.of(fieldLines)));
    }

    @Test
    void offersAreParsedWithTokenAndQuotedValues() {
        List<ExtensionOffers.Offer> offers = ExtensionOffers.parse(List.of(
                "foo, permessage-deflate; client_max_window_bits=\"10\" ;server_no_context_takeover",
                "bar; x=1"));
        assertEquals(3, offers.size());
        assertEquals("foo", offers.get(0).name());
        assertEquals(List.of(new ExtensionOffers.Param("client_max_window_bits", "10"),
                new ExtensionOffers.Param("server_no_context_takeover", null)), offers.get(1).params());
        assertEquals("bar", offers.get(2).name());
    }

    @Test
    void malformedElementIsDroppedAndTheNextOneKept() {
        List<ExtensionOffers.Offer> offers = ExtensionOffers.parse(List.of(
                "permessage-deflate; =x, permessage-deflate; a=\"b c\", permessage-deflate"));
        assertEquals(1, offers.size());
        assertTrue(offers.get(0).params().isEmpty());
    }

    @Test
    void plainOfferIsAccepted() {
        assertEquals("permessage-deflate", negotiate("permessage-deflate").response());
        assertEquals("permessage-deflate", negotiate("PerMessage-Deflate; client_max_window_bits").response());
    }

    @Test
    void firstAcceptableOfferWins() {
        var a = negotiate("permessage-deflate; server_max_window_bits=16",
                "permessage-deflate; client_no_context_takeover", "permessage-deflate");
        assertEquals("permessage-deflate; client_no_context_takeover", a.response());
        assertTrue(a.clientNoContextTakeover());
    }

    @Test
    void parametersAreAnsweredAsTheRfcRequires() {
        var a = negotiate("permessage-deflate; server_no_context_takeover; server_max_window_bits=15");
        assertEquals("permessage-deflate; server_no_context_takeover; server_max_window_bits=15", a.response());
        assertTrue(a.serverNoContextTakeover());
    }

    @Test
    void aServerWindowBelow15IsAcceptedAndEchoed() {
        var a = negotiate("permessage-deflate; server_max_window_bits=8");
        assertEquals("permessage-deflate; server_max_window_bits=8", a.response());
        assertEquals(8, a.serverMaxWindowBits());
        assertEquals(15, negotiate("permessage-deflate").serverMaxWindowBits());
    }

    @Test
    void offersThatAreMalformedAreDeclined() {
        assertNull(negotiate("permessage-deflate; server_max_window_bits=16"));
        assertNull(negotiate("permessage-deflate; server_max_window_bits=015"));
        assertNull(negotiate("permessage-deflate; client_max_window_bits=7"));
        assertNull(negotiate("permessage-deflate; client_max_window_bits=abc"));
        assertNull(negotiate("permessage-deflate; client_no_context_takeover=yes"));
        assertNull(negotiate("permessage-deflate; client_max_window_bits; client_max_window_bits"));
        assertNull(negotiate("permessage-deflate; mystery"));
        assertNull(negotiate("x-webkit-deflate-frame"));
    }

    @Test
    void codecRoundTripsAcrossMessagesWithAndWithoutContextTakeover() throws SessionFailure {
        for (String offer : new String[] {"permessage-deflate",
                "permessage-deflate; server_no_context_takeover; client_no_context_takeover"}) {
            try (PerMessageDeflate sender = new PerMessageDeflate(negotiate(offer));
                 PerMessageDeflate receiver = new PerMessageDeflate(negotiate(offer))) {
                for (int i = 0; i < 3; i++) {
                    byte[] msg = ("message " + i + " ").repeat(50).getBytes();
                    int n = sender.compress(msg, 0, msg.length, true);
                    byte[] wire = java.util.Arrays.copyOf(sender.output(), n);
                    receiver.input(wire, 0, wire.length);
                    byte[] out = new byte[msg.length + 10];
                    int got = 0;
                    for (int k; (k = receiver.inflate(out, got, out.length - got)) > 0; ) {
                        got += k;
                    }
                    receiver.endOfMessage();
                    for (int k; (k = receiver.inflate(out, got, out.length - got)) > 0; ) {
                        got += k;
                    }
                    receiver.messageDone();
                    assertEquals(new String(msg), new String(out, 0, got), offer);
                }
            }
        }
    }
}
