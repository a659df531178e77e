package dev.weft.httpserver.core;

import com.sun.net.httpserver.Headers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** What a handler may put in its response fields, and what the server learns from them for the framing. */
class ResponseFieldsTest {

    @Test
    void aNullValueIsAProgrammingErrorAsInTheJdksServer() {
        Headers headers = new Headers();
        headers.add("X-Empty", "set");
        headers.get("X-Empty").set(0, null); // the list a handler gets back is not checked again

        NullPointerException e = assertThrows(NullPointerException.class, () -> ResponseFields.validate(headers));
        assertEquals("null value for response header X-empty", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\r\nX-Injected: 1", "a\nb", "a\u0000b", "a\u007fb", "\u0100"})
    void aValueThatCouldSplitTheResponseOrIsNotLatin1IsRefused(String value) {
        Headers headers = new Headers();
        headers.add("X-Value", "ok");
        headers.get("X-Value").set(0, value); // past the checks of Headers itself

        assertThrows(IOException.class, () -> ResponseFields.validate(headers));
    }

    @Test
    void theFieldsThatDecideTheFramingAreReported() throws IOException {
        Headers headers = new Headers();
        headers.add("Connection", "keep-alive, close");
        headers.add("Content-Length", "3");
        headers.add("Date", "Thu, 26 Nov 2026 18:00:00 GMT");
        headers.add("Server", "mine");

        assertEquals(ResponseFields.CONNECTION_CLOSE | ResponseFields.CONTENT_LENGTH_SET | ResponseFields.DATE_SET
                | ResponseFields.SERVER_SET, ResponseFields.validate(headers));
    }
}
