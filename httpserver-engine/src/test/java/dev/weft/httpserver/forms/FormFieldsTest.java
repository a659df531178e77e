package dev.weft.httpserver.forms;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FormFieldsTest {

    private static final FormLimits DEFAULTS = FormLimits.defaults();

    @Test
    void plusIsSpaceAndEscapesAreUtf8() throws Exception {
        FormFields f = FormFields.parseQuery("q=a+b%2Bc&name=%C3%A9t%C3%A9&empty=&flag&q=2", DEFAULTS);
        assertEquals(Optional.of("a b+c"), f.first("q"));
        assertEquals(List.of("a b+c", "2"), f.all("q"));
        assertEquals(Optional.of("été"), f.first("name"));
        assertEquals(Optional.of(""), f.first("empty"));
        assertEquals(Optional.of(""), f.first("flag"));
        assertEquals(List.of("q", "name", "empty", "flag"), List.copyOf(f.names()));
        assertEquals(5, f.size());
    }

    @Test
    void aBodyIsDecodedInTheCharsetItIsGiven() throws Exception {
        byte[] body = "name=%E9t%E9&city=Z%FCrich".getBytes(StandardCharsets.US_ASCII);
        FormFields latin1 = FormFields.readForm(new ByteArrayInputStream(body), StandardCharsets.ISO_8859_1, DEFAULTS);
        assertEquals(Optional.of("été"), latin1.first("name"));
        assertEquals(Optional.of("Zürich"), latin1.first("city"));

        FormException notUtf8 = assertThrows(FormException.class,
                () -> FormFields.readForm(new ByteArrayInputStream(body), DEFAULTS));
        assertEquals(400, notUtf8.statusCode());
    }

    @Test
    void aCharsetThatDoesNotEncodeAsciiAsAsciiIsUnsupportedMediaType() {
        byte[] body = "a=b".getBytes(StandardCharsets.US_ASCII);
        FormException e = assertThrows(FormException.class,
                () -> FormFields.readForm(new ByteArrayInputStream(body), StandardCharsets.UTF_16, DEFAULTS));
        assertEquals(415, e.statusCode());
    }

    @Test
    void emptyPairsAreSkippedAndEqualsInValuesKept() throws Exception {
        FormFields f = FormFields.parseQuery("&&a=1&&b=x=y&", DEFAULTS);
        assertEquals(List.of(new FormFields.Field("a", "1"), new FormFields.Field("b", "x=y")), f.asList());
        assertEquals(0, FormFields.parseQuery(null, DEFAULTS).size());
        assertEquals(0, FormFields.parseQuery("", DEFAULTS).size());
    }

    @Test
    void malformedEscapesAreRejectedWith400() {
        for (String bad : List.of("a=%", "a=%2", "a=%zz", "%g1=b", "a=%C3", "a=%FF%FE")) {
            FormException e = assertThrows(FormException.class, () -> FormFields.parseQuery(bad, DEFAULTS), bad);
            assertEquals(400, e.statusCode(), bad);
        }
    }

    @Test
    void fieldCountLimitAtAndOver() throws Exception {
        FormLimits limits = FormLimits.builder().maxFields(3).build();
        assertEquals(3, FormFields.parseQuery("a=1&b=2&c=3", limits).size());
        assertEquals(413, assertThrows(FormException.class,
                () -> FormFields.parseQuery("a=1&b=2&c=3&d=4", limits)).statusCode());
    }

    @Test
    void nameAndValueSizeLimitsAtAndOver() throws Exception {
        FormLimits limits = FormLimits.builder().maxNameSize(4).maxValueSize(6).build();
        assertEquals(Optional.of("%%%%%%".replace("%", "v")), FormFields.parseQuery("nnnn=vvvvvv", limits).first("nnnn"));
        assertEquals(413, assertThrows(FormException.class,
                () -> FormFields.parseQuery("nnnnn=v", limits)).statusCode());
        assertEquals(413, assertThrows(FormException.class,
                () -> FormFields.parseQuery("n=vvvvvvv", limits)).statusCode());
    }

    @Test
    void bodyIsReadByteAtATimeUpToTheTotalLimit() throws Exception {
        String body = "a=" + "x".repeat(98); // 100 bytes
        FormLimits limits = FormLimits.builder().maxTotalSize(100).build();
        assertEquals(98, FormFields.readForm(oneBytePerRead(body), limits).first("a").orElseThrow().length());
        FormException over = assertThrows(FormException.class,
                () -> FormFields.readForm(oneBytePerRead(body + "y"), limits));
        assertEquals(413, over.statusCode());
        assertEquals(Optional.of("1 2"), FormFields.readForm(oneBytePerRead("k=1+2"), DEFAULTS).first("k"));
    }

    @Test
    void percentEncodingRoundTripsPathSegments() throws Exception {
        String name = "a b/ü&\"<>%.txt";
        String encoded = PercentEncoding.encodeSegment(name);
        assertEquals("a%20b%2F%C3%BC%26%22%3C%3E%25.txt", encoded);
        assertEquals(name, PercentEncoding.decode(encoded, false));
        assertEquals("a+b", PercentEncoding.decode("a+b", false));
    }

    static InputStream oneBytePerRead(String s) {
        return oneBytePerRead(s.getBytes(StandardCharsets.UTF_8));
    }

    /** A stream whose every read returns at most one byte. */
    static InputStream oneBytePerRead(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1));
            }

            @Override
            public byte[] readAllBytes() {
                throw new UnsupportedOperationException("tests read through read(byte[], int, int)");
            }

            @Override
            public synchronized long transferTo(java.io.OutputStream out) throws IOException {
                return super.transferTo(out);
            }
        };
    }
}
