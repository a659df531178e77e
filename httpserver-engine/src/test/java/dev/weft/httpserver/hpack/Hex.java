package dev.weft.httpserver.hpack;

import java.util.HexFormat;

/** Hex helpers for tests. */
final class Hex {
    private Hex() {
    }

    static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    static String hex(byte[] data) {
        return HexFormat.of().formatHex(data);
    }
}
