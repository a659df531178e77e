package dev.weft.httpserver.hpack;

import static dev.weft.httpserver.hpack.Hex.bytes;
import static dev.weft.httpserver.hpack.Hex.hex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class HuffmanTest {

    /** Strings and their encodings from RFC 7541 Appendix C.4 and C.6. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "www.example.com|f1e3c2e5f23a6ba0ab90f4ff",
            "no-cache|a8eb10649cbf",
            "custom-key|25a849e95ba97d7f",
            "custom-value|25a849e95bb8e8b4bf",
            "302|6402",
            "307|640eff",
            "private|aec3771a4b",
            "Mon, 21 Oct 2013 20:13:21 GMT|d07abe941054d444a8200595040b8166e082a62d1bff",
            "https://www.example.com|9d29ad171863c78f0b97c8e9ae82ae43d3",
            "gzip|9bd9ab",
            "foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1|"
                    + "94e7821dd7f2e6c7b335dfdfcd5b3960d5af27087f3672c1ab270fb5291f9587316065c003ed4ee5b1063d5007"})
    void rfcAppendixCStrings(String text, String huffmanHex) throws HpackException {
        byte[] raw = text.getBytes(StandardCharsets.ISO_8859_1);
        assertEquals(huffmanHex, hex(HuffmanEncoder.encode(raw)));
        assertEquals(huffmanHex.length() / 2, HuffmanEncoder.encodedLength(raw));
        assertEquals(text, new String(HuffmanDecoder.decode(bytes(huffmanHex)), StandardCharsets.ISO_8859_1));
    }

    @Test
    void everyOctetRoundTrips() throws HpackException {
        for (int i = 0; i < 256; i++) {
            byte[] one = {(byte) i};
            assertArrayEquals(one, HuffmanDecoder.decode(HuffmanEncoder.encode(one)), "octet " + i);
        }
        byte[] all = new byte[256 * 3];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) (i * 7);
        }
        assertArrayEquals(all, HuffmanDecoder.decode(HuffmanEncoder.encode(all)));
    }

    @Test
    void randomRoundTrips() throws HpackException {
        Random random = new Random(7541);
        for (int n = 0; n < 2000; n++) {
            byte[] data = new byte[random.nextInt(40)];
            random.nextBytes(data);
            assertArrayEquals(data, HuffmanDecoder.decode(HuffmanEncoder.encode(data)));
        }
    }

    @Test
    void emptyString() throws HpackException {
        assertEquals(0, HuffmanEncoder.encode(new byte[0]).length);
        assertEquals(0, HuffmanDecoder.decode(new byte[0]).length);
    }

    @Test
    void paddingLongerThanSevenBitsIsRejected() {
        // 'a' = 00011, then 3 + 8 bits of ones
        assertThrows(HpackException.class, () -> HuffmanDecoder.decode(bytes("1fff")));
        // a whole octet of padding on its own
        assertThrows(HpackException.class, () -> HuffmanDecoder.decode(bytes("ff")));
    }

    @Test
    void paddingNotAllOnesIsRejected() throws HpackException {
        assertEquals("a", new String(HuffmanDecoder.decode(bytes("1f")), StandardCharsets.ISO_8859_1));
        // 'a' followed by 000 (a prefix of '0' = 00000, not of EOS)
        assertThrows(HpackException.class, () -> HuffmanDecoder.decode(bytes("18")));
        assertThrows(HpackException.class, () -> HuffmanDecoder.decode(bytes("1e")));
    }

    @Test
    void eosSymbolIsRejected() {
        // EOS is 30 ones; followed by two padding ones
        HpackException e = assertThrows(HpackException.class, () -> HuffmanDecoder.decode(bytes("ffffffff")));
        assertTrue(e.isConnectionError());
        // 'a' then EOS then padding
        assertThrows(HpackException.class, () -> HuffmanDecoder.decode(bytes("1fffffffff")));
    }

    @Test
    void decodedLengthLimitIsEnforced() {
        byte[] encoded = HuffmanEncoder.encode("aaaaaaaaaa".getBytes(StandardCharsets.ISO_8859_1));
        assertThrows(HpackException.class,
                () -> HuffmanDecoder.decode(ByteBuffer.wrap(encoded), encoded.length, 9));
    }

    @Test
    void truncatedInputIsRejected() {
        assertThrows(HpackException.class, () -> HuffmanDecoder.decode(ByteBuffer.wrap(bytes("f1e3")), 3, 100));
    }

    @Test
    void tableHasCanonicalShape() {
        assertEquals(257, HuffmanTable.CODES.length);
        assertEquals(257, HuffmanTable.LENGTHS.length);
        assertEquals(0x3fffffff, HuffmanTable.CODES[HuffmanTable.EOS]);
        assertEquals(30, HuffmanTable.LENGTHS[HuffmanTable.EOS]);
        assertEquals(0x18, HuffmanTable.CODES['/']);
        assertEquals(6, HuffmanTable.LENGTHS['/']);
    }
}
