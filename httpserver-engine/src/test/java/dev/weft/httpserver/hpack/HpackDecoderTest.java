package dev.weft.httpserver.hpack;

import static dev.weft.httpserver.hpack.Hex.bytes;
import static dev.weft.httpserver.hpack.RfcExamples.headers;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HpackDecoderTest {

    private final HpackDecoder decoder = new HpackDecoder();

    @Test
    void c21_literalWithIndexing() throws HpackException {
        assertEquals(headers("custom-key", "custom-header"),
                decoder.decode(bytes("400a637573746f6d2d6b65790d637573746f6d2d686561646572")));
        assertEquals(1, decoder.dynamicTable().length());
        assertEquals(55, decoder.dynamicTable().size());
        assertEquals(new HeaderField("custom-key", "custom-header"), decoder.dynamicTable().get(1));
    }

    @Test
    void c22_literalWithoutIndexing() throws HpackException {
        assertEquals(headers(":path", "/sample/path"), decoder.decode(bytes("040c2f73616d706c652f70617468")));
        assertEquals(0, decoder.dynamicTable().length());
    }

    @Test
    void c23_literalNeverIndexed() throws HpackException {
        List<HeaderField> fields = decoder.decode(bytes("100870617373776f726406736563726574"));
        assertEquals(List.of(new HeaderField("password", "secret", true)), fields);
        assertEquals(0, decoder.dynamicTable().length());
    }

    @Test
    void c24_indexed() throws HpackException {
        assertEquals(headers(":method", "GET"), decoder.decode(bytes("82")));
        assertEquals(0, decoder.dynamicTable().length());
    }

    @Test
    void c3_requestsWithoutHuffman() throws HpackException {
        checkSequence(decoder, RfcExamples.C3, RfcExamples.REQUESTS, RfcExamples.REQUEST_TABLE_SIZES);
        assertEquals(new HeaderField("custom-key", "custom-value"), decoder.dynamicTable().get(1));
        assertEquals(new HeaderField("cache-control", "no-cache"), decoder.dynamicTable().get(2));
        assertEquals(new HeaderField(":authority", "www.example.com"), decoder.dynamicTable().get(3));
    }

    @Test
    void c4_requestsWithHuffman() throws HpackException {
        checkSequence(decoder, RfcExamples.C4, RfcExamples.REQUESTS, RfcExamples.REQUEST_TABLE_SIZES);
        assertEquals(3, decoder.dynamicTable().length());
    }

    @Test
    void c5_responsesWithoutHuffman() throws HpackException {
        HpackDecoder d = new HpackDecoder(256, Integer.MAX_VALUE);
        checkSequence(d, RfcExamples.C5, RfcExamples.RESPONSES, RfcExamples.RESPONSE_TABLE_SIZES);
        checkC5Table(d);
    }

    @Test
    void c6_responsesWithHuffman() throws HpackException {
        HpackDecoder d = new HpackDecoder(256, Integer.MAX_VALUE);
        checkSequence(d, RfcExamples.C6, RfcExamples.RESPONSES, RfcExamples.RESPONSE_TABLE_SIZES);
        checkC5Table(d);
    }

    private static void checkC5Table(HpackDecoder d) {
        DynamicTable t = d.dynamicTable();
        assertEquals(3, t.length());
        assertEquals("set-cookie", t.get(1).name());
        assertEquals(new HeaderField("content-encoding", "gzip"), t.get(2));
        assertEquals(new HeaderField("date", "Mon, 21 Oct 2013 20:13:22 GMT"), t.get(3));
    }

    static void checkSequence(HpackDecoder d, String[] wire, List<List<HeaderField>> expected, int[] sizes)
            throws HpackException {
        for (int i = 0; i < wire.length; i++) {
            assertEquals(expected.get(i), d.decode(bytes(wire[i])), "block " + i);
            assertEquals(sizes[i], d.dynamicTable().size(), "table size after block " + i);
        }
    }

    private HpackException fails(String hex) {
        HpackException e = assertThrows(HpackException.class, () -> decoder.decode(bytes(hex)));
        assertTrue(e.isConnectionError(), e.getMessage());
        return e;
    }

    @Test
    void indexZeroIsRejected() {
        fails("80");
        fails("8280");
    }

    @Test
    void indexBeyondTablesIsRejected() throws HpackException {
        fails("be"); // 62 with an empty dynamic table
        fails("7e0161"); // literal with indexed name 62
        fails("0f3001"); // literal without indexing, name index 63
        decoder.decode(bytes("400a637573746f6d2d6b65790d637573746f6d2d686561646572"));
        assertEquals(headers("custom-key", "custom-header"), decoder.decode(bytes("be")));
        fails("bf");
    }

    @Test
    void sizeUpdateAboveLimitIsRejected() throws HpackException {
        decoder.decode(bytes("3fe11f")); // 4096: allowed
        fails("3fe21f"); // 4097
    }

    @Test
    void sizeUpdateAfterFieldIsRejected() throws HpackException {
        fails("8220");
        assertEquals(headers(":method", "GET"), decoder.decode(bytes("203fe11f82"))); // two updates at start
        assertEquals(4096, decoder.dynamicTable().maxSize());
    }

    @Test
    void sizeUpdateEvicts() throws HpackException {
        decoder.decode(bytes("400a637573746f6d2d6b65790d637573746f6d2d686561646572"));
        decoder.decode(bytes("20"));
        assertEquals(0, decoder.dynamicTable().length());
        assertEquals(0, decoder.dynamicTable().maxSize());
    }

    @Test
    void loweredLimitRequiresSizeUpdate() throws HpackException {
        decoder.setMaxTableSizeLimit(100);
        fails("82");
        assertEquals(headers(":method", "GET"), decoder.decode(bytes("3f4582"))); // update to 100
        assertEquals(100, decoder.dynamicTable().maxSize());
        assertEquals(headers(":method", "GET"), decoder.decode(bytes("82")));
        fails("3f4682"); // 101 > limit
    }

    @Test
    void headerListTooLargeIsStreamErrorAndKeepsContextInSync() throws HpackException {
        HpackDecoder d = new HpackDecoder(4096, 100);
        HpackException e = assertThrows(HpackException.class, () -> d.decode(bytes(RfcExamples.C3[0])));
        assertFalse(e.isConnectionError());
        // the whole block was processed: :authority was still added to the table
        assertEquals(57, d.dynamicTable().size());
        d.setMaxHeaderListSize(1000);
        assertEquals(RfcExamples.REQUESTS.get(1), d.decode(bytes(RfcExamples.C3[1])));
    }

    @Test
    void headerListAtExactLimitIsAccepted() throws HpackException {
        HpackDecoder d = new HpackDecoder(4096, 42);
        assertEquals(headers(":method", "GET"), d.decode(bytes("82")));
        assertFalse(assertThrows(HpackException.class, () -> d.decode(bytes("8282"))).isConnectionError());
    }

    @ParameterizedTest
    @ValueSource(strings = {"41", "410f7777", "400a6375", "400a637573746f6d2d6b6579", "400a637573746f6d2d6b65790d",
            "3f", "ff", "828684418cf1e3c2e5f23a6ba0ab90f4", "1f"})
    void truncatedInputIsRejected(String hex) {
        fails(hex);
    }

    @Test
    void integerOverflowIsRejected() {
        fails("ffffffffffff0f");
        fails("410fffffffffff0f"); // string length overflow
        fails("3fffffffffff0f");
    }

    @Test
    void stringLengthLimitIsEnforced() {
        decoder.setMaxStringLength(11);
        fails("400a637573746f6d2d6b65790d637573746f6d2d686561646572"); // 13-octet raw value
        fails("408825a849e95ba97d7f8925a849e95bb8e8b4bf"); // 9 Huffman octets decoding to 12
        decoder.setMaxStringLength(12);
        assertEquals(2, assertDoesNotThrow(() -> decoder.decode(bytes("408825a849e95ba97d7f8925a849e95bb8e8b4bf40"
                + "8825a849e95ba97d7f8925a849e95bb8e8b4bf"))).size());
    }

    @Test
    void huffmanErrorsInBlockAreConnectionErrors() {
        fails("418118"); // padding not all ones
        fails("4182ffff"); // padding too long
        fails("4184ffffffff"); // EOS
    }

    @Test
    void emptyBlockDecodesToEmptyList() throws HpackException {
        assertEquals(List.of(), decoder.decode(new byte[0]));
    }

    @Test
    void repeatedLiteralWithoutIndexingIsTheSameField() throws HpackException {
        List<HeaderField> first = decoder.decode(bytes("040c2f73616d706c652f70617468"));
        List<HeaderField> second = decoder.decode(bytes("040c2f73616d706c652f70617468"));
        assertEquals(headers(":path", "/sample/path"), second);
        assertSame(first.get(0), second.get(0));
        // Another value, or the same octets under another name, is decoded afresh.
        assertEquals(headers(":path", "/sample/patx"), decoder.decode(bytes("040c2f73616d706c652f70617478")));
        assertEquals(headers(":authority", "/sample/path"), decoder.decode(bytes("010c2f73616d706c652f70617468")));
        assertEquals(0, decoder.dynamicTable().length());
    }

    @Test
    void repeatedNeverIndexedLiteralIsDecodedAgain() throws HpackException {
        List<HeaderField> first = decoder.decode(bytes("100870617373776f726406736563726574"));
        List<HeaderField> second = decoder.decode(bytes("100870617373776f726406736563726574"));
        assertEquals(first, second);
        assertNotSame(first.get(0), second.get(0));
    }
}
