package dev.weft.httpserver.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.weft.httpserver.testing.MiniJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Proves our encoder's output is decoded exactly by an independent decoder: the Python {@code hpack} package
 * (installed by scripts/install-test-tools.sh). Every raw-data story of hpack-test-case is encoded with one
 * {@link HpackEncoder} per story, and the blocks are decoded in order by one {@code hpack.Decoder} per story.
 */
class HpackPythonInteropTest {

    private static final String INSTALL_HINT = "run scripts/install-test-tools.sh to install python3 and the "
            + "Python hpack module this test needs";
    private static final long TIMEOUT_SECONDS = 60;

    /** One encoded story: the name sent to Python, the headers of each block, and the encoded blocks. */
    private record Encoded(String name, List<List<List<String>>> headers, List<byte[]> blocks) {
        int encodedSize() {
            return blocks.stream().mapToInt(b -> b.length).sum();
        }
    }

    @TempDir
    Path tmp;

    @Test
    void pythonHpackDecodesOurEncoderExactly() throws Exception {
        checkPythonHpack();
        List<Path> stories = rawStories();

        // The encoder exactly as HpackVectorsTest round-trips it (default settings), and a small-table variant
        // whose first block carries a size update and whose table evicts constantly.
        List<Encoded> encoded = new ArrayList<>();
        long literalOctets = 0;
        int blockCount = 0;
        for (Path story : stories) {
            List<List<List<String>>> cases = cases(story);
            for (List<List<String>> c : cases) {
                for (List<String> h : c) {
                    literalOctets += h.get(0).length() + h.get(1).length();
                }
            }
            blockCount += cases.size();
            String name = "raw-data/" + story.getFileName();
            encoded.add(encode(name, cases, HpackEncoder::new));
            encoded.add(encode(name + "#table-256", cases, () -> new HpackEncoder(256, 4096)));
        }

        Map<String, List<List<List<String>>>> decoded = runPython(encoded);
        for (Encoded e : encoded) {
            List<List<List<String>>> got = decoded.get(e.name());
            assertNotNull(got, e.name() + ": missing from the Python decoder's output");
            assertEquals(e.headers().size(), got.size(), e.name() + ": number of blocks");
            for (int i = 0; i < got.size(); i++) {
                assertEquals(e.headers().get(i), got.get(i), e.name() + " block " + i + " (" + Hex.hex(e.blocks().get(i)) + ")");
            }
        }
        assertEquals(encoded.size(), decoded.size(), "stories decoded");

        // The blocks must exercise Huffman coding and the dynamic table, not just literal passthrough: compare
        // the default encoding with the same encoder without Huffman, and with a zero-size dynamic table.
        long defaultSize = 0;
        long noHuffmanSize = 0;
        long noTableSize = 0;
        for (Path story : stories) {
            List<List<List<String>>> cases = cases(story);
            defaultSize += encode("", cases, HpackEncoder::new).encodedSize();
            noHuffmanSize += encode("", cases, () -> {
                HpackEncoder enc = new HpackEncoder();
                enc.setUseHuffman(false);
                return enc;
            }).encodedSize();
            noTableSize += encode("", cases, () -> new HpackEncoder(0, 4096)).encodedSize();
        }
        String sizes = "blocks=" + blockCount + " literal octets=" + literalOctets + " encoded=" + defaultSize
                + " without Huffman=" + noHuffmanSize + " without dynamic table=" + noTableSize;
        System.out.println("HpackPythonInteropTest: " + encoded.size() + " stories decoded by Python hpack; " + sizes);
        assertTrue(defaultSize < noHuffmanSize * 9 / 10, "Huffman coding barely used: " + sizes);
        assertTrue(defaultSize < noTableSize / 2, "dynamic table barely used: " + sizes);
        assertTrue(defaultSize < literalOctets / 2, "encoded size not well below the literal size: " + sizes);
    }

    private static Encoded encode(String name, List<List<List<String>>> cases, Supplier<HpackEncoder> factory) {
        HpackEncoder encoder = factory.get();
        List<byte[]> blocks = new ArrayList<>();
        for (List<List<String>> c : cases) {
            blocks.add(encoder.encode(c.stream().map(h -> new HeaderField(h.get(0), h.get(1))).toList()));
        }
        return new Encoded(name, cases, blocks);
    }

    // ---- Python side ----

    /** Fails (never skips) when python3 or its hpack module is missing. */
    private void checkPythonHpack() throws IOException, InterruptedException {
        ProcessResult r;
        try {
            r = run(List.of("python3", "-c", "import hpack; print(hpack.__version__)"));
        } catch (IOException e) {
            throw new AssertionError("python3 not found (" + e.getMessage() + "): " + INSTALL_HINT, e);
        }
        if (r.exit() != 0) {
            fail("python3 cannot import hpack (exit " + r.exit() + "): " + r.stderr().strip() + "\n" + INSTALL_HINT);
        }
        System.out.println("HpackPythonInteropTest: Python hpack " + r.stdout().strip());
    }

    @SuppressWarnings("unchecked")
    private Map<String, List<List<List<String>>>> runPython(List<Encoded> encoded)
            throws IOException, InterruptedException {
        Path script = tmp.resolve("decode_blocks.py");
        try (InputStream in = HpackPythonInteropTest.class.getResourceAsStream("/hpack/decode_blocks.py")) {
            assertNotNull(in, "test resource /hpack/decode_blocks.py not on the class path");
            Files.copy(in, script, StandardCopyOption.REPLACE_EXISTING);
        }
        Path input = tmp.resolve("blocks.json");
        Files.writeString(input, inputJson(encoded), StandardCharsets.UTF_8);

        ProcessResult r = run(List.of("python3", script.toString(), input.toString()));
        if (r.exit() != 0) {
            fail("decode_blocks.py failed (exit " + r.exit() + "):\n" + r.stderr());
        }
        Object parsed = MiniJson.parse(r.stdout());
        assertTrue(parsed instanceof Map, "decode_blocks.py printed no JSON object: " + r.stdout());
        Map<String, List<List<List<String>>>> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : ((Map<String, Object>) parsed).entrySet()) {
            List<List<List<String>>> blocks = new ArrayList<>();
            for (Object block : (List<Object>) e.getValue()) {
                List<List<String>> fields = new ArrayList<>();
                for (Object field : (List<Object>) block) {
                    List<Object> pair = (List<Object>) field;
                    assertEquals(2, pair.size(), e.getKey() + ": field is not a [name, value] pair");
                    fields.add(List.of((String) pair.get(0), (String) pair.get(1)));
                }
                blocks.add(fields);
            }
            out.put(e.getKey(), blocks);
        }
        return out;
    }

    private static String inputJson(List<Encoded> encoded) {
        StringBuilder sb = new StringBuilder("{\"stories\": [");
        for (int s = 0; s < encoded.size(); s++) {
            Encoded e = encoded.get(s);
            sb.append(s == 0 ? "\n" : ",\n").append("{\"name\": ");
            jsonString(sb, e.name());
            sb.append(", \"table_size\": null, \"blocks\": [");
            for (int i = 0; i < e.blocks().size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                jsonString(sb, Hex.hex(e.blocks().get(i)));
            }
            sb.append("]}");
        }
        return sb.append("\n]}\n").toString();
    }

    /** Appends {@code s} as a JSON string; everything outside printable ASCII is written as a \\u escape. */
    static void jsonString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    private record ProcessResult(int exit, String stdout, String stderr) {
    }

    /** Runs a command with a timeout; its output goes to files, so neither pipe can fill up and block it. */
    private ProcessResult run(List<String> command) throws IOException, InterruptedException {
        Path out = Files.createTempFile(tmp, "stdout", ".txt");
        Path err = Files.createTempFile(tmp, "stderr", ".txt");
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            p.waitFor(5, TimeUnit.SECONDS);
            fail(String.join(" ", command) + " did not finish within " + TIMEOUT_SECONDS + " s");
        }
        return new ProcessResult(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    // ---- hpack-test-case raw data ----

    private static List<Path> rawStories() throws IOException {
        Path dir = HpackVectorsTest.dataDir().resolve("raw-data");
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> list = files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
            assertFalse(list.isEmpty(), "no story files in " + dir);
            return list;
        }
    }

    /** The header lists of a story's cases, each header as [name, value]. */
    @SuppressWarnings("unchecked")
    private static List<List<List<String>>> cases(Path story) throws IOException {
        Map<String, Object> root = (Map<String, Object>) MiniJson.parse(Files.readString(story, StandardCharsets.UTF_8));
        List<Object> cases = (List<Object>) root.get("cases");
        assertNotNull(cases, story + ": no cases");
        assertFalse(cases.isEmpty(), story + ": no cases");
        List<List<List<String>>> out = new ArrayList<>();
        for (Object c : cases) {
            List<List<String>> headers = new ArrayList<>();
            for (Object o : (List<Object>) ((Map<String, Object>) c).get("headers")) {
                Map<String, Object> single = (Map<String, Object>) o;
                assertEquals(1, single.size(), story + ": header object with one entry");
                Map.Entry<String, Object> e = single.entrySet().iterator().next();
                headers.add(List.of(e.getKey(), (String) e.getValue()));
            }
            out.add(headers);
        }
        return out;
    }
}
