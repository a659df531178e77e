package dev.weft.httpserver.hpack;

import java.io.ByteArrayOutputStream;

/** Huffman-encodes octet strings with the RFC 7541 Appendix B code. */
public final class HuffmanEncoder {

    private HuffmanEncoder() {
    }

    /** Length in octets of the Huffman encoding of {@code data}. */
    public static int encodedLength(byte[] data) {
        long bits = 0;
        for (byte b : data) {
            bits += HuffmanTable.LENGTHS[b & 0xff];
        }
        return (int) ((bits + 7) >>> 3);
    }

    /** Huffman-encodes {@code data}, padding the last octet with the most significant bits of EOS (ones). */
    public static byte[] encode(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(encodedLength(data));
        encode(data, out);
        return out.toByteArray();
    }

    /** Huffman-encodes {@code data} into {@code out}. */
    public static void encode(byte[] data, ByteArrayOutputStream out) {
        long acc = 0; // pending bits, right-aligned
        int pending = 0;
        for (byte b : data) {
            int sym = b & 0xff;
            int len = HuffmanTable.LENGTHS[sym];
            acc = (acc << len) | HuffmanTable.CODES[sym];
            pending += len;
            while (pending >= 8) {
                pending -= 8;
                out.write((int) (acc >>> pending));
            }
            acc &= (1L << pending) - 1;
        }
        if (pending > 0) {
            int pad = 8 - pending;
            out.write((int) ((acc << pad) | ((1 << pad) - 1)));
        }
    }
}
