package dev.weft.httpserver.core;

import static dev.weft.httpserver.core.ResponseFraming.Body.NONE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One framing decision for HTTP/1.1 and HTTP/2: which body follows the head and which length is sent. */
class ResponseFramingTest {

    private static final int NO_FIELDS = 0;

    @ParameterizedTest(name = "{0} {1} length {2} -> {3}, Content-Length {4}, handler's kept: {5}")
    @CsvSource({
            // method, status, length, body, contentLength, keepHandlerLength
            "GET,     200,  5,  FIXED,    5,  false",
            "GET,     200,  0,  STREAMED, -1, false",
            "GET,     200,  -1, NONE,     0,  false",
            "POST,    201,  -1, NONE,     0,  false",
            "GET,     204,  -1, NONE,     -1, false",
            "GET,     204,  7,  NONE,     -1, false",
            "GET,     304,  -1, NONE,     -1, true",
            "GET,     304,  9,  NONE,     -1, true",
            "HEAD,    200,  42, NONE,     42, true",
            "HEAD,    200,  0,  NONE,     -1, true",
            "HEAD,    200,  -1, NONE,     -1, true",
            "GET,     101,  0,  TUNNEL,   -1, false",
            "CONNECT, 200,  0,  TUNNEL,   -1, false",
            "CONNECT, 200,  -1, TUNNEL,   -1, false",
            "CONNECT, 407,  5,  FIXED,    5,  false",
    })
    void framingFollowsMethodStatusAndLength(String method, int status, long length, ResponseFraming.Body body,
                                             long contentLength, boolean keepHandlerLength) {
        ResponseFraming framing = ResponseFraming.of(method, status, length, NO_FIELDS, "Weft");
        assertEquals(body, framing.body());
        assertEquals(contentLength, framing.contentLength());
        assertEquals(keepHandlerLength, framing.keepHandlerLength());
    }

    @Test
    void aHeadResponseKeepsTheHandlersOwnContentLengthInsteadOfAddingOne() {
        ResponseFraming framing = ResponseFraming.of("HEAD", 200, 42, ResponseFields.CONTENT_LENGTH_SET, null);
        assertEquals(NONE, framing.body());
        assertEquals(-1, framing.contentLength());
        assertTrue(framing.keepHandlerLength());
    }

    @Test
    void dateAndServerAreAddedUnlessTheHandlerSetThem() {
        ResponseFraming added = ResponseFraming.of("GET", 200, 1, NO_FIELDS, "Weft");
        assertTrue(added.addDate());
        assertEquals("Weft", added.server());

        ResponseFraming own = ResponseFraming.of("GET", 200, 1,
                ResponseFields.DATE_SET | ResponseFields.SERVER_SET, "Weft");
        assertFalse(own.addDate());
        assertNull(own.server());

        assertNull(ResponseFraming.of("GET", 200, 1, NO_FIELDS, null).server());
    }

    @Test
    void anInterimResponseCarriesOnlyTheHandlersFields() {
        assertEquals(-1, ResponseFraming.INTERIM.contentLength());
        assertFalse(ResponseFraming.INTERIM.addDate());
        assertNull(ResponseFraming.INTERIM.server());
    }

    @ParameterizedTest(name = "{0} {1} length {2} ends with the head: {3}")
    @CsvSource({
            "GET,  200, 5,  false",
            "GET,  200, 0,  false",
            "GET,  200, -1, true",
            "HEAD, 200, 5,  true",
            "GET,  204, -1, true",
            "GET,  304, 0,  true",
            "GET,  101, -1, false",
    })
    void theExchangeEndsWithTheHeadWhenNothingFollowsAsInTheJdk(String method, int status, long length,
                                                               boolean ends) {
        assertEquals(ends, ResponseFraming.endsWithHead(method, status, length));
    }
}
