package dev.weft.httpserver.forms;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MultipartReaderTest {

    private static final String B = "----weftB0undary";

    private static String body(String... parts) {
        StringBuilder b = new StringBuilder();
        for (String p : parts) {
            b.append("--").append(B).append("\r\n").append(p).append("\r\n");
        }
        return b.append("--").append(B).append("--\r\n").toString();
    }

    private static InputStream stream(String s, boolean oneByte) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        return oneByte ? FormFieldsTest.oneBytePerRead(bytes) : new ByteArrayInputStream(bytes);
    }

    private record Read(String name, String filename, String type, String content) {
    }

    private static List<Read> readAll(MultipartReader reader) throws IOException {
        List<Read> out = new ArrayList<>();
        for (MultipartPart p; (p = reader.next()) != null; ) {
            out.add(new Read(p.name(), p.filename().orElse(null), p.contentType(), p.text()));
        }
        return out;
    }

    @ParameterizedTest(name = "one byte per read: {0}")
    @ValueSource(booleans = {false, true})
    void partsFieldsAndFilesAreRead(boolean oneByte) throws Exception {
        String s = body(
                "Content-Disposition: form-data; name=\"title\"\r\n\r\nHello, world",
                "Content-Disposition: form-data; name=\"file\"; filename=\"a b.txt\"\r\n"
                        + "Content-Type: text/plain\r\n\r\nline1\r\nline2\r\n--not-the-boundary\r\n",
                "Content-Disposition: form-data; name=\"empty\"\r\n\r\n");
        List<Read> parts = readAll(new MultipartReader(stream(s, oneByte), B, MultipartLimits.defaults()));
        assertEquals(List.of(
                new Read("title", null, "text/plain", "Hello, world"),
                new Read("file", "a b.txt", "text/plain", "line1\r\nline2\r\n--not-the-boundary\r\n"),
                new Read("empty", null, "text/plain", "")), parts);
    }

    @ParameterizedTest(name = "one byte per read: {0}")
    @ValueSource(booleans = {false, true})
    void preambleEpilogueAndPaddingAreIgnored(boolean oneByte) throws Exception {
        String s = "This is the preamble.\r\n--" + B + "  \t\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--"
                + B + "--\r\nepilogue that is never read --" + B + "\r\n";
        assertEquals(List.of(new Read("a", null, "text/plain", "1")),
                readAll(new MultipartReader(stream(s, oneByte), B, MultipartLimits.defaults())));
    }

    @Test
    void binaryContentWithCrLfNearTheBoundaryIsKeptExactly() throws Exception {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (int i = 0; i < 100_000; i++) {
            content.write(i % 7 == 0 ? '\r' : i % 11 == 0 ? '\n' : i % 13 == 0 ? '-' : i);
        }
        content.writeBytes(("\r\n--" + B.substring(0, 10)).getBytes(StandardCharsets.US_ASCII)); // partial delimiter
        byte[] expected = content.toByteArray();
        ByteArrayOutputStream s = new ByteArrayOutputStream();
        s.writeBytes(("--" + B + "\r\nContent-Disposition: form-data; name=\"bin\"; filename=\"x.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        s.writeBytes(expected);
        s.writeBytes(("\r\n--" + B + "--").getBytes(StandardCharsets.US_ASCII));
        for (boolean oneByte : new boolean[] {false, true}) {
            InputStream in = oneByte ? FormFieldsTest.oneBytePerRead(s.toByteArray())
                    : new ByteArrayInputStream(s.toByteArray());
            MultipartReader reader = new MultipartReader(in, B, MultipartLimits.defaults());
            MultipartPart part = reader.next();
            assertEquals("application/octet-stream", part.contentType());
            assertArrayEquals(expected, part.bytes());
            assertNull(reader.next());
        }
    }

    @Test
    void quotedBoundaryAndFilenameStarAreDecoded() throws Exception {
        String boundary = MultipartReader.boundary("multipart/form-data; boundary=\"weft: a=b?\"; charset=utf-8");
        assertEquals("weft: a=b?", boundary);
        String s = "--weft: a=b?\r\nContent-Disposition: form-data; name=\"f\"; filename=\"plain.txt\"; "
                + "filename*=UTF-8''%E2%82%AC%20rates.txt\r\n\r\nx\r\n--weft: a=b?--";
        MultipartPart p = new MultipartReader(stream(s, false), boundary, MultipartLimits.defaults()).next();
        assertEquals(Optional.of("€ rates.txt"), p.filename());
    }

    @Test
    void unreadPartsAreSkippedAndAPassedPartCannotBeRead() throws Exception {
        String s = body("Content-Disposition: form-data; name=a\r\n\r\n" + "a".repeat(50_000),
                "Content-Disposition: form-data; name=b\r\n\r\nsecond");
        MultipartReader reader = new MultipartReader(stream(s, false), B, MultipartLimits.defaults());
        MultipartPart a = reader.next();
        assertEquals('a', a.body().read());
        MultipartPart b = reader.next();
        assertEquals("second", b.text());
        assertThrows(IOException.class, () -> a.body().read());
    }

    @Test
    void partCountLimitAtAndOver() throws Exception {
        String two = body("Content-Disposition: form-data; name=a\r\n\r\n1", "Content-Disposition: form-data; name=b\r\n\r\n2");
        MultipartLimits limits = MultipartLimits.builder().maxParts(2).build();
        assertEquals(2, readAll(new MultipartReader(stream(two, false), B, limits)).size());
        String three = body("Content-Disposition: form-data; name=a\r\n\r\n1", "Content-Disposition: form-data; name=b\r\n\r\n2",
                "Content-Disposition: form-data; name=c\r\n\r\n3");
        assertEquals(413, assertThrows(FormException.class,
                () -> readAll(new MultipartReader(stream(three, false), B, limits))).statusCode());
    }

    @Test
    void partSizeLimitAtAndOver() throws Exception {
        MultipartLimits limits = MultipartLimits.builder().maxPartSize(10).build();
        String at = body("Content-Disposition: form-data; name=a\r\n\r\n0123456789");
        assertEquals("0123456789", readAll(new MultipartReader(stream(at, true), B, limits)).get(0).content());
        String over = body("Content-Disposition: form-data; name=a\r\n\r\n0123456789X");
        assertEquals(413, assertThrows(FormException.class,
                () -> readAll(new MultipartReader(stream(over, true), B, limits))).statusCode());
    }

    @Test
    void totalSizeLimitAtAndOver() throws Exception {
        String s = body("Content-Disposition: form-data; name=a\r\n\r\nvalue");
        // read up to the close delimiter's "--"; its CRLF and the epilogue are never read
        int size = s.getBytes(StandardCharsets.UTF_8).length - 2;
        MultipartLimits at = MultipartLimits.builder().maxTotalSize(size).build();
        assertEquals(1, readAll(new MultipartReader(stream(s, true), B, at)).size());
        MultipartLimits under = MultipartLimits.builder().maxTotalSize(size - 1).build();
        assertEquals(413, assertThrows(FormException.class,
                () -> readAll(new MultipartReader(stream(s, true), B, under))).statusCode());
    }

    @Test
    void headerSectionLimitAtAndOver() throws Exception {
        String header = "Content-Disposition: form-data; name=a\r\nX-Pad: ";
        int fixed = header.length() + 4; // CRLF ending the field, CRLF ending the section
        MultipartLimits limits = MultipartLimits.builder().maxPartHeaderSize(100).build();
        String at = body(header + "p".repeat(100 - fixed) + "\r\n\r\nv");
        assertEquals(1, readAll(new MultipartReader(stream(at, false), B, limits)).size());
        String over = body(header + "p".repeat(101 - fixed) + "\r\n\r\nv");
        assertEquals(413, assertThrows(FormException.class,
                () -> readAll(new MultipartReader(stream(over, false), B, limits))).statusCode());
    }

    @Test
    void malformedBodiesAreRejectedWith400() {
        List<String> bad = List.of(
                "--" + B + "\r\nContent-Disposition: form-data; name=a\r\n\r\ntruncated", // no close delimiter
                "no delimiter at all",
                "--" + B + "\r\nContent-Type: text/plain\r\n\r\nx\r\n--" + B + "--", // no Content-Disposition
                "--" + B + "\r\nContent-Disposition: attachment; name=a\r\n\r\nx\r\n--" + B + "--",
                "--" + B + "\r\nContent-Disposition: form-data\r\n\r\nx\r\n--" + B + "--", // no name
                "--" + B + "\r\nContent-Disposition: form-data; name=a; name=b\r\n\r\nx\r\n--" + B + "--",
                "--" + B + "\nContent-Disposition: form-data; name=a\n\nx\n--" + B + "--", // bare LF
                "--" + B + "\r\nContent-Disposition: form-data; name=a\r\nBad Header\r\n\r\nx\r\n--" + B + "--",
                "--" + B + "junk\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n--" + B + "--");
        for (String s : bad) {
            FormException e = assertThrows(FormException.class,
                    () -> readAll(new MultipartReader(stream(s, false), B, MultipartLimits.defaults())), s);
            assertEquals(400, e.statusCode(), s);
        }
    }

    @Test
    void contentTypeMustBeMultipartWithAValidBoundary() {
        assertEquals(415, assertThrows(FormException.class,
                () -> MultipartReader.boundary("application/json")).statusCode());
        assertEquals(415, assertThrows(FormException.class, () -> MultipartReader.boundary(null)).statusCode());
        for (String bad : List.of("multipart/form-data", "multipart/form-data; boundary=",
                "multipart/form-data; boundary=\"" + "x".repeat(71) + "\"", "multipart/form-data; boundary=\"a b \"",
                "multipart/form-data; boundary=a\u00e9b", "multipart/form-data; boundary=\"unterminated")) {
            assertEquals(400, assertThrows(FormException.class, () -> MultipartReader.boundary(bad), bad).statusCode());
        }
        assertTrue(assertThrows(FormException.class, () -> MultipartReader.boundary("multipart/form-data")).getMessage()
                .contains("boundary"));
    }
}
