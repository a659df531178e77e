package dev.weft.httpserver.accesslog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.Headers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Each directive writes what it stands for; presets expand; bad patterns are refused naming the directive. */
class LogPatternTest {

    private static final long START = Instant.parse("2026-11-27T06:13:03.250Z").toEpochMilli();
    private static final String TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US)
            .format(Instant.ofEpochMilli(START).atZone(ZoneId.systemDefault()));

    private static LogEntry entry() throws Exception {
        Headers request = new Headers();
        request.add("Host", "example.org:8443");
        request.add("Referer", "https://example.org/from");
        request.add("User-Agent", "curl/8.5 \"quoted\"");
        Headers response = new Headers();
        response.add("Content-Type", "text/plain");
        return new LogEntry(new InetSocketAddress(InetAddress.getByName("192.0.2.7"), 51234),
                new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080), "alice", "GET",
                "/a/b?x=1&y=2", "HTTP/1.1", 404, 1234, START, 2_500_123_456L, request, response);
    }

    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "%h | 192.0.2.7",
            "%a | 192.0.2.7",
            "%A | 127.0.0.1",
            "%l | -",
            "%u | alice",
            "%r | GET /a/b?x=1&y=2 HTTP/1.1",
            "%m | GET",
            "%U | /a/b",
            "%q | ?x=1&y=2",
            "%H | HTTP/1.1",
            "%s | 404",
            "%>s | 404",
            "%b | 1234",
            "%B | 1234",
            "%D | 2500123",
            "%T | 2",
            "%{s}T | 2",
            "%{ms}T | 2500",
            "%{us}T | 2500123",
            "%{Referer}i | https://example.org/from",
            "%{user-agent}i | curl/8.5 \\\"quoted\\\"",
            "%{X-Missing}i | -",
            "%{Content-Type}o | text/plain",
            "%v | example.org",
            "%p | 8080",
            "%{remote}p | 51234",
            "%% | %",
            "`[%h] %s%%` | [192.0.2.7] 404%",
    })
    void eachDirectiveWritesItsValue(String pattern, String expected) throws Exception {
        assertEquals(expected, LogPattern.compile(pattern).format(entry()));
    }

    @Test
    void timeIsTheRequestStartInCommonLogFormat() throws Exception {
        assertEquals("[" + TIME + "]", LogPattern.compile("%t").format(entry()));
    }

    @Test
    void combinedIsCommonWithRefererAndUserAgent() throws Exception {
        String common = "192.0.2.7 - alice [" + TIME + "] \"GET /a/b?x=1&y=2 HTTP/1.1\" 404 1234";
        assertEquals(common, LogPattern.compile("common").format(entry()));
        assertEquals(common + " \"https://example.org/from\" \"curl/8.5 \\\"quoted\\\"\"",
                LogPattern.compile("COMBINED").format(entry()));
    }

    @Test
    void missingValuesAreDashesAndNoBodyIsADashForLowerCaseB() {
        LogEntry bare = new LogEntry(null, null, null, "GET", "/", "HTTP/1.0", 204, 0, START, 0, null, null);
        assertEquals("- - - - 0 \"-\" 0 -", LogPattern.compile("%h %l %u %b %B \"%{Referer}i\" %D %v").format(bare));
    }

    @Test
    void controlAndNonAsciiCharactersAreEscapedSoALineStaysOneLine() {
        LogEntry odd = new LogEntry(null, null, "b\\ob\nx\u00e9\u20ac", "GET", "/", "HTTP/1.1", 200, 1, START, 0,
                null, null);
        assertEquals("b\\\\ob\\x0ax\\xe9\\u20ac", LogPattern.compile("%u").format(odd));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "%Z | '%Z'",
            "%h %x | '%x' at position 3",
            "trailing % | ends the pattern",
            "%{Referer | no closing '}'",
            "%{}i | empty {}",
            "%{Referer}s | '%{Referer}s'",
            "%{minutes}T | '%{minutes}T'",
            "%i | '%i'",
            "%h café %s | character 233 at position 6",
    })
    void aBadPatternIsRefusedNamingTheDirective(String pattern, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LogPattern.compile(pattern));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
