package dev.weft.httpserver.hpack;

import java.util.Arrays;

/**
 * The last few fields a peer sent as literals without indexing, remembered by their encoded value octets.
 * Some encoders never index certain fields (nghttp2 sends {@code :path} as a literal every time), so the
 * same octets arrive request after request; a repeat is answered with the same {@link HeaderField}
 * instance, without decoding the string again. Never-indexed (sensitive) fields are not remembered.
 * Not thread-safe; one per decoder.
 */
final class RepeatedLiterals {

    /** Longer encoded values are not remembered. */
    static final int MAX_ENCODED_LENGTH = 256;
    private static final int SLOTS = 8;

    private final byte[][] encoded = new byte[SLOTS][];
    private final HeaderField[] fields = new HeaderField[SLOTS];
    private int next;

    /**
     * The remembered field with this name whose value was encoded as {@code block[from..to)}, or null.
     */
    HeaderField find(String name, byte[] block, int from, int to) {
        for (int i = 0; i < SLOTS; i++) {
            HeaderField f = fields[i];
            if (f != null && Arrays.equals(encoded[i], 0, encoded[i].length, block, from, to)
                    && f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }

    /** Remembers {@code field}, whose value was encoded as {@code block[from..to)}, in place of the oldest. */
    void remember(HeaderField field, byte[] block, int from, int to) {
        encoded[next] = Arrays.copyOfRange(block, from, to);
        fields[next] = field;
        next = (next + 1) % SLOTS;
    }
}
