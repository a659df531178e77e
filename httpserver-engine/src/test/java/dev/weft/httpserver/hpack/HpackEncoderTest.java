package dev.weft.httpserver.hpack;

import static dev.weft.httpserver.hpack.Hex.bytes;
import static dev.weft.httpserver.hpack.Hex.hex;
import static dev.weft.httpserver.hpack.RfcExamples.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class HpackEncoderTest {

    private static HpackEncoder plainEncoder(int tableSize) {
        HpackEncoder e = new HpackEncoder(tableSize, tableSize);
        e.setUseHuffman(false);
        return e;
    }

    @Test
    void c21_literalWithIndexing() {
        HpackEncoder e = plainEncoder(4096);
        assertEquals("400a637573746f6d2d6b65790d637573746f6d2d686561646572",
                hex(e.encode(headers("custom-key", "custom-header"))));
        assertEquals(55, e.dynamicTable().size());
    }

    @Test
    void c24_indexed() {
        assertEquals("82", hex(plainEncoder(4096).encode(headers(":method", "GET"))));
    }

    @Test
    void c3_requestsWithoutHuffman() {
        HpackEncoder e = plainEncoder(4096);
        for (int i = 0; i < 3; i++) {
            assertEquals(RfcExamples.C3[i], hex(e.encode(RfcExamples.REQUESTS.get(i))), "request " + i);
            assertEquals(RfcExamples.REQUEST_TABLE_SIZES[i], e.dynamicTable().size());
        }
    }

    @Test
    void c4_requestsWithHuffman() {
        HpackEncoder e = new HpackEncoder();
        for (int i = 0; i < 3; i++) {
            assertEquals(RfcExamples.C4[i], hex(e.encode(RfcExamples.REQUESTS.get(i))), "request " + i);
            assertEquals(RfcExamples.REQUEST_TABLE_SIZES[i], e.dynamicTable().size());
        }
    }

    @Test
    void c5_responsesWithoutHuffman() {
        checkResponses(plainEncoder(256), RfcExamples.C5, "7738", "1f2838");
    }

    @Test
    void c6_responsesWithHuffman() {
        // C.6.2 Huffman-codes "307" as 640eff, no shorter than the raw 333037: we use Huffman only when
        // strictly shorter, so our second block is the C.5.2 one.
        String[] expected = {RfcExamples.C6[0], RfcExamples.C5[1], RfcExamples.C6[2]};
        checkResponses(new HpackEncoder(256, 256), expected, "77ad", "1f28ad");
    }

    /**
     * C.5.1, C.5.2 (C.6.1, C.6.2) byte for byte. In C.5.3 the RFC indexes set-cookie; we never index it, so
     * the last field is a never-indexed literal (name index 55 with a 4-bit prefix) and the table keeps the
     * entries the RFC's set-cookie evicted.
     */
    private static void checkResponses(HpackEncoder e, String[] wire, String rfcSetCookie, String ourSetCookie) {
        for (int i = 0; i < 2; i++) {
            assertEquals(wire[i], hex(e.encode(RfcExamples.RESPONSES.get(i))), "response " + i);
            assertEquals(RfcExamples.RESPONSE_TABLE_SIZES[i], e.dynamicTable().size());
        }
        String third = hex(e.encode(RfcExamples.RESPONSES.get(2)));
        int at = wire[2].lastIndexOf(rfcSetCookie);
        assertEquals(wire[2].substring(0, at) + ourSetCookie + wire[2].substring(at + rfcSetCookie.length()), third);
        assertEquals(-1, e.dynamicTable().indexOf("set-cookie"));
    }

    @Test
    void sensitiveFieldsUseNeverIndexedLiterals() throws HpackException {
        HpackEncoder e = plainEncoder(4096);
        byte[] block = e.encode(List.of(
                new HeaderField("authorization", "Basic xyz"),
                new HeaderField("proxy-authorization", "p"),
                new HeaderField("set-cookie", "a=b"),
                new HeaderField("cookie", "short=1"),
                new HeaderField("x-secret", "s", true)));
        assertTrue(hex(block).startsWith("1f08" + "09"), hex(block)); // name index 23, 4-bit prefix
        assertEquals(0, e.dynamicTable().length());
        HpackDecoder d = new HpackDecoder();
        for (HeaderField f : d.decode(block)) {
            assertTrue(f.sensitive(), f.toString());
        }
        // repeating them never turns them into indexed references
        byte[] again = e.encode(List.of(new HeaderField("authorization", "Basic xyz")));
        assertEquals("1f080942617369632078797a", hex(again));
    }

    @Test
    void longCookiesAreIndexed() {
        HpackEncoder e = plainEncoder(4096);
        HeaderField cookie = new HeaderField("cookie", "session=0123456789abcdef");
        e.encode(List.of(cookie));
        assertEquals(1, e.dynamicTable().length());
        assertEquals("be", hex(e.encode(List.of(cookie))));
        // short cookie: never-indexed literal, name index 32 with a 4-bit prefix
        assertEquals("1f1103613d62", hex(e.encode(List.of(new HeaderField("cookie", "a=b")))));
        assertEquals(1, e.dynamicTable().length());
    }

    @Test
    void huffmanOnlyWhenShorter() {
        HpackEncoder e = new HpackEncoder();
        // 0xff and 0xfe have 26- and 27-bit codes: the raw octets are shorter
        byte[] block = e.encode(List.of(new HeaderField("etag", "\u00ff\u00fe")));
        assertEquals("6202fffe", hex(block)); // name index 34 (incremental indexing), raw value
        // "aaaa" is 20 bits Huffman-coded: 3 octets instead of 4
        assertEquals("628318c63f", hex(e.encode(List.of(new HeaderField("etag", "aaaa")))));
    }

    @Test
    void tableSizeUpdateAfterSettingsChange() throws HpackException {
        HpackEncoder e = new HpackEncoder();
        e.setPeerMaxTableSize(1024);
        assertEquals("3fe10782", hex(e.encode(headers(":method", "GET"))));
        assertEquals("82", hex(e.encode(headers(":method", "GET"))));
        assertEquals(1024, e.dynamicTable().maxSize());
        // lowered then raised before the next block: minimum first, then the final size
        e.setPeerMaxTableSize(0);
        e.setPeerMaxTableSize(4096);
        assertEquals("203fe11f82", hex(e.encode(headers(":method", "GET"))));
        // the peer may allow more than our cap: our size stays 4096, so there is no change to signal
        e.setPeerMaxTableSize(65536);
        assertEquals("82", hex(e.encode(headers(":method", "GET"))));
        assertEquals(4096, e.dynamicTable().maxSize());
    }

    @Test
    void repeatedListIsSentAgainOnlyWhileTheTableIsUnchanged() throws HpackException {
        HpackEncoder e = new HpackEncoder();
        HpackDecoder d = new HpackDecoder();
        List<HeaderField> response = List.of(new HeaderField(":status", "200"),
                new HeaderField("content-type", "text/plain"), new HeaderField("content-length", "13"));
        byte[] first = e.encode(response); // indexes content-type and content-length
        byte[] second = e.encode(new ArrayList<>(response)); // now all indexed: different bytes
        byte[] third = e.encode(new ArrayList<>(response)); // the table did not change: the same bytes
        assertNotEquals(hex(first), hex(second));
        assertEquals(hex(second), hex(third));
        assertEquals("88bfbe", hex(third));
        for (byte[] block : List.of(first, second, third)) {
            assertEquals(response, d.decode(block));
        }
        // a new table size: the block is encoded again, with the size update first
        e.setPeerMaxTableSize(100);
        byte[] resized = e.encode(response);
        assertEquals("3f45", hex(resized).substring(0, 4));
        d.setMaxTableSizeLimit(100);
        assertEquals(response, d.decode(resized));
    }

    @Test
    void listChangedAfterEncodingIsNotMistakenForTheLastOne() throws HpackException {
        HpackEncoder e = new HpackEncoder();
        HpackDecoder d = new HpackDecoder();
        List<HeaderField> fields = new ArrayList<>(List.of(new HeaderField(":status", "200")));
        e.encode(fields);
        fields.add(new HeaderField("x-late", "added"));
        assertEquals(fields, d.decode(e.encode(fields)));
    }

    @Test
    void settingsRepeatingTheCurrentSizeSignalNothing() {
        HpackEncoder e = new HpackEncoder();
        e.setPeerMaxTableSize(4096); // a client's SETTINGS with the default
        assertEquals("82", hex(e.encode(headers(":method", "GET"))));
        // lowered and raised back before the next block: the minimum must still be signalled
        e.setPeerMaxTableSize(100);
        e.setPeerMaxTableSize(4096);
        assertEquals("3f45" + "3fe11f" + "82", hex(e.encode(headers(":method", "GET"))));
    }

    @Test
    void smallCapAnnouncesItselfInFirstBlock() {
        HpackEncoder e = new HpackEncoder(0, 4096);
        assertEquals("2082", hex(e.encode(headers(":method", "GET"))));
        e.encode(headers("x-a", "b"));
        assertEquals(0, e.dynamicTable().length());
    }

    @Test
    void randomRoundTripWithEvictionAndResizes() throws HpackException {
        Random random = new Random(42);
        HpackEncoder e = new HpackEncoder();
        HpackDecoder d = new HpackDecoder();
        for (int block = 0; block < 500; block++) {
            if (random.nextInt(20) == 0) {
                int size = random.nextInt(5000);
                d.setMaxTableSizeLimit(size);
                e.setPeerMaxTableSize(size);
            }
            List<HeaderField> fields = new ArrayList<>();
            int n = random.nextInt(12);
            for (int i = 0; i < n; i++) {
                String name = random.nextInt(3) == 0 ? ":path" : "x-h" + random.nextInt(30);
                StringBuilder value = new StringBuilder();
                int len = random.nextInt(random.nextInt(10) == 0 ? 300 : 20);
                for (int k = 0; k < len; k++) {
                    value.append((char) (random.nextBoolean() ? 'a' + random.nextInt(26) : random.nextInt(256)));
                }
                fields.add(new HeaderField(name, value.toString()));
            }
            assertEquals(fields, d.decode(e.encode(fields)), "block " + block);
            assertEquals(e.dynamicTable().size(), d.dynamicTable().size());
        }
    }

    @Test
    void encodedBlockDecodesWithRfcDecoderState() throws HpackException {
        HpackDecoder d = new HpackDecoder(256, Integer.MAX_VALUE);
        HpackEncoder e = new HpackEncoder(256, 256);
        for (List<HeaderField> response : RfcExamples.RESPONSES) {
            assertEquals(RfcExamples.plain(response), RfcExamples.plain(d.decode(e.encode(response))));
        }
        assertEquals(List.of(List.of("set-cookie", "x")),
                RfcExamples.plain(d.decode(bytes("1f280178"))));
    }

    @Test
    void aFieldSentAgainIsIndexed() {
        HpackEncoder e = plainEncoder(4096);
        String name = "custom-key";
        String value = "custom-header";
        e.encode(List.of(new HeaderField(name, value)));
        assertEquals("be", hex(e.encode(List.of(new HeaderField(name, value)))));
        // Equal strings that are other instances find the same entry.
        assertEquals("be", hex(e.encode(List.of(new HeaderField(new String(name), new String(value))))));
    }
}
