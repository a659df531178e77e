package dev.weft.httpserver.accesslog;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.net.httpserver.Headers;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The presets' straight code writes, byte for byte, what the parts of the same pattern write. */
class PresetLineTest {

    private static final long START = Instant.parse("2026-11-27T23:59:59.999Z").toEpochMilli();

    static List<LogEntry> entries() throws UnknownHostException {
        InetSocketAddress v4 = new InetSocketAddress(InetAddress.getByName("192.0.2.7"), 51234);
        InetSocketAddress v6 = new InetSocketAddress(InetAddress.getByName("2001:db8::1"), 443);
        InetSocketAddress local = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 8080);
        Headers browser = new Headers();
        browser.add("Referer", "https://example.org/from?q=\"x\"");
        browser.add("User-Agent", "Mozilla/5.0 (X11; Linux x86_64) caf\u00e9 \\ \u00ff");
        Headers empty = new Headers();
        empty.add("Referer", "");
        List<LogEntry> entries = new ArrayList<>();
        for (Headers request : new Headers[] {null, new Headers(), browser, empty}) {
            entries.add(new LogEntry(v4, local, null, "GET", "/plaintext", "HTTP/1.1", 200, 13, START, 40_000,
                    request, null));
            entries.add(new LogEntry(v6, local, "alice", "POST", "/a/b?x=1&y=\"2\"", "HTTP/2.0", 404, 0, START,
                    1, request, new Headers()));
            entries.add(new LogEntry(null, null, "", "", "", "", 0, -1, 0, 0, request, null));
            entries.add(new LogEntry(v4, null, "b\\ob\nx\u00e9\u20ac", "G\"T", "/\u0000\u007f\u00ff", "HTTP/1.0",
                    999, Long.MAX_VALUE, -1, Long.MAX_VALUE, request, null));
        }
        return entries;
    }

    @ParameterizedTest
    @MethodSource("entries")
    void commonWritesWhatItsPartsWrite(LogEntry entry) {
        assertEquals(LogPattern.compileAsParts("common").format(entry), LogPattern.compile("common").format(entry));
    }

    @ParameterizedTest
    @MethodSource("entries")
    void combinedWritesWhatItsPartsWrite(LogEntry entry) {
        assertEquals(LogPattern.compileAsParts("combined").format(entry),
                LogPattern.compile("combined").format(entry));
    }
}
