package dev.weft.httpserver.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.httpserver.testing.MiniJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Decodes the hpack-test-case stories (github.com/http2jp/hpack-test-case) and round-trips the raw data. */
class HpackVectorsTest {

    private static final List<String> WIRE_FOLDERS =
            List.of("nghttp2", "nghttp2-change-table-size", "go-hpack", "python-hpack");

    static Path dataDir() {
        Path cwd = Path.of(System.getProperty("user.dir"));
        for (String relative : List.of("../../shared/testdata/hpack-test-case", "../shared/testdata/hpack-test-case")) {
            Path candidate = cwd.resolve(relative).normalize();
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError("hpack-test-case data not found: tried ../../shared/testdata/hpack-test-case and "
                + "../shared/testdata/hpack-test-case relative to " + cwd);
    }

    private static List<Path> stories(String folder) {
        Path dir = dataDir().resolve(folder);
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> list = files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
            if (list.isEmpty()) {
                throw new AssertionError("no story files in " + dir);
            }
            return list;
        } catch (IOException e) {
            throw new AssertionError("cannot list " + dir, e);
        }
    }

    static Stream<String> wireStories() {
        List<String> names = new ArrayList<>();
        for (String folder : WIRE_FOLDERS) {
            for (Path p : stories(folder)) {
                names.add(folder + "/" + p.getFileName());
            }
        }
        return names.stream();
    }

    static Stream<String> rawStories() {
        return stories("raw-data").stream().map(p -> "raw-data/" + p.getFileName());
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> cases(String story) throws IOException {
        String json = Files.readString(dataDir().resolve(story), StandardCharsets.UTF_8);
        Map<String, Object> root = (Map<String, Object>) MiniJson.parse(json);
        List<Map<String, Object>> cases = (List<Map<String, Object>>) root.get("cases");
        assertNotNull(cases, story + ": no cases");
        assertFalse(cases.isEmpty(), story + ": no cases");
        return cases;
    }

    @SuppressWarnings("unchecked")
    private static List<List<String>> headers(Map<String, Object> c) {
        List<List<String>> out = new ArrayList<>();
        for (Object o : (List<Object>) c.get("headers")) {
            Map<String, Object> single = (Map<String, Object>) o;
            assertEquals(1, single.size(), "header object with one entry");
            Map.Entry<String, Object> e = single.entrySet().iterator().next();
            out.add(List.of(e.getKey(), (String) e.getValue()));
        }
        return out;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wireStories")
    void decodesStory(String story) throws IOException {
        HpackDecoder decoder = new HpackDecoder();
        int n = 0;
        for (Map<String, Object> c : cases(story)) {
            Object tableSize = c.get("header_table_size");
            if (tableSize != null) {
                decoder.setMaxTableSizeLimit(((Number) tableSize).intValue());
            }
            byte[] wire = Hex.bytes((String) c.get("wire"));
            try {
                assertEquals(headers(c), RfcExamples.plain(decoder.decode(wire)), story + " case " + n);
            } catch (HpackException e) {
                fail(story + " case " + n + ": " + e.getMessage(), e);
            }
            n++;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rawStories")
    void roundTripsRawStory(String story) throws IOException, HpackException {
        HpackEncoder encoder = new HpackEncoder();
        HpackDecoder decoder = new HpackDecoder();
        int n = 0;
        for (Map<String, Object> c : cases(story)) {
            List<List<String>> expected = headers(c);
            List<HeaderField> fields = expected.stream().map(h -> new HeaderField(h.get(0), h.get(1))).toList();
            assertEquals(expected, RfcExamples.plain(decoder.decode(encoder.encode(fields))), story + " case " + n);
            assertEquals(encoder.dynamicTable().size(), decoder.dynamicTable().size());
            n++;
        }
    }

    @Test
    void allFoldersArePresent() {
        for (String folder : WIRE_FOLDERS) {
            assertFalse(stories(folder).isEmpty(), folder);
        }
        assertFalse(stories("raw-data").isEmpty());
    }

    @Test
    void miniJsonReadsEscapes() {
        assertEquals(Map.of("a", List.of("x&<>\"\\/\n", 12L, true)),
                MiniJson.parse(" {\"a\": [\"x\\u0026\\u003c\\u003e\\\"\\\\\\/\\n\", 12, true]} "));
    }
}
