package dev.weft.httpserver.tls;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** How server names match: case, trailing dot, exact before wildcard, one label per wildcard, bad names. */
class ServerNameTableTest {

    private final ServerNameTable<String> table = ServerNameTable.of(List.of(
            Map.entry("Example.COM", "exact"),
            Map.entry("*.example.com", "wildcard"),
            Map.entry("www.example.com.", "www")));

    @Test
    void namesMatchWithoutRegardToCaseOrATrailingDot() {
        assertEquals("exact", table.find("example.com"));
        assertEquals("exact", table.find("EXAMPLE.com."));
        assertEquals("www", table.find("WWW.Example.Com"));
    }

    @Test
    void anExactNameWinsOverAWildcardThatMatchesOneLeadingLabelOnly() {
        assertEquals("www", table.find("www.example.com"));
        assertEquals("wildcard", table.find("api.example.com"));
        assertNull(table.find("a.b.example.com"));
        assertNull(table.find("example.org"));
        assertNull(table.find("com"));
    }

    @Test
    void malformedAndRepeatedNamesAreRejected() {
        for (String bad : List.of("", "*", "a..b", ".a.b", "*.", "a*.b", "**.b", "a b", "ex\u00e4mple.com")) {
            assertThrows(IllegalArgumentException.class, () -> ServerNameTable.of(List.of(Map.entry(bad, 1))), bad);
        }
        assertThrows(IllegalArgumentException.class, () -> ServerNameTable.of(List.of(
                Map.entry("a.test", 1), Map.entry("A.TEST.", 2))));
    }
}
