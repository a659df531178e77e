package dev.weft.httpserver.hpack;

import java.nio.ByteBuffer;

/**
 * Table-driven Huffman decoder for the RFC 7541 Appendix B code. The code tree's 256 internal nodes are
 * the states of a machine that consumes four bits per step; since every code is at least five bits long,
 * one step emits at most one symbol. The transition table is computed once from {@link HuffmanTable}.
 */
public final class HuffmanDecoder {

    private static final int STATES = 256;
    private static final int FLAG_EMIT = 1 << 16;
    private static final int FLAG_FAIL = 1 << 17;
    private static final int STATE_MASK = 0xff;

    /** Indexed by state * 16 + nibble: next state (bits 0-7), symbol (bits 8-15), flags. */
    private static final int[] TRANSITIONS = new int[STATES * 16];
    /** States in which the input may legally end: at most 7 bits into a code, all ones (EOS prefix). */
    private static final boolean[] ACCEPTING = new boolean[STATES];

    static {
        // Build the code tree: child >= 0 is an internal node, child < 0 is leaf -(symbol + 1).
        int[][] child = new int[STATES][2];
        int nodes = 1;
        for (int sym = 0; sym <= HuffmanTable.EOS; sym++) {
            int code = HuffmanTable.CODES[sym];
            int len = HuffmanTable.LENGTHS[sym];
            int node = 0;
            for (int i = len - 1; i > 0; i--) {
                int bit = (code >>> i) & 1;
                if (child[node][bit] == 0) {
                    child[node][bit] = nodes++;
                }
                node = child[node][bit];
            }
            child[node][code & 1] = -(sym + 1);
        }
        if (nodes != STATES) {
            throw new IllegalStateException("unexpected Huffman tree: " + nodes + " internal nodes");
        }
        // Depth and all-ones property of each state (parents always get lower ids than children).
        int[] depth = new int[STATES];
        boolean[] allOnes = new boolean[STATES];
        allOnes[0] = true;
        for (int s = 0; s < STATES; s++) {
            for (int bit = 0; bit < 2; bit++) {
                int c = child[s][bit];
                if (c > 0) {
                    depth[c] = depth[s] + 1;
                    allOnes[c] = allOnes[s] && bit == 1;
                }
            }
            ACCEPTING[s] = s == 0 || (allOnes[s] && depth[s] <= 7);
        }
        for (int s = 0; s < STATES; s++) {
            for (int nibble = 0; nibble < 16; nibble++) {
                int state = s;
                int entry = 0;
                for (int i = 3; i >= 0; i--) {
                    int next = child[state][(nibble >>> i) & 1];
                    if (next < 0) {
                        int sym = -next - 1;
                        if (sym == HuffmanTable.EOS) {
                            entry |= FLAG_FAIL;
                        } else {
                            entry |= FLAG_EMIT | (sym << 8);
                        }
                        state = 0;
                    } else {
                        state = next;
                    }
                }
                TRANSITIONS[s * 16 + nibble] = entry | state;
            }
        }
    }

    private HuffmanDecoder() {
    }

    /** Decodes {@code length} Huffman-coded octets from {@code in}, producing at most {@code maxLength} octets. */
    public static byte[] decode(ByteBuffer in, int length, int maxLength) throws HpackException {
        if (in.remaining() < length) {
            throw HpackException.compression("truncated Huffman string");
        }
        long capacity = Math.min((long) length * 8 / 5, maxLength + 1L);
        byte[] out = new byte[(int) capacity];
        int n = 0;
        int state = 0;
        for (int i = 0; i < length; i++) {
            int b = in.get() & 0xff;
            for (int shift = 4; shift >= 0; shift -= 4) {
                int t = TRANSITIONS[(state << 4) | ((b >>> shift) & 0xf)];
                if ((t & FLAG_FAIL) != 0) {
                    throw HpackException.compression("EOS symbol in Huffman string");
                }
                if ((t & FLAG_EMIT) != 0) {
                    if (n >= maxLength) {
                        throw HpackException.compression("decoded string exceeds " + maxLength + " octets");
                    }
                    out[n++] = (byte) (t >>> 8);
                }
                state = t & STATE_MASK;
            }
        }
        if (!ACCEPTING[state]) {
            throw HpackException.compression("invalid Huffman padding");
        }
        return n == out.length ? out : java.util.Arrays.copyOf(out, n);
    }

    /** Decodes a whole array of Huffman-coded octets. */
    public static byte[] decode(byte[] data) throws HpackException {
        return decode(ByteBuffer.wrap(data), data.length, Integer.MAX_VALUE - 1);
    }
}
