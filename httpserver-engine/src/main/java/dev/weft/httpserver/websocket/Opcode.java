package dev.weft.httpserver.websocket;

/** The frame opcodes of RFC 6455 §5.2 and what each kind of frame may do (§5.4, §5.5). */
final class Opcode {

    static final int CONTINUATION = 0x0;
    static final int TEXT = 0x1;
    static final int BINARY = 0x2;
    static final int CLOSE = 0x8;
    static final int PING = 0x9;
    static final int PONG = 0xA;

    /** §5.5: control frames carry at most this many payload bytes. */
    static final int MAX_CONTROL_PAYLOAD = 125;

    private Opcode() {
    }

    /** §5.5: opcodes with the most significant bit set are control frames. */
    static boolean isControl(int opcode) {
        return (opcode & 0x8) != 0;
    }

    /** §5.2: 0x3–0x7 and 0xB–0xF are reserved; receiving one fails the connection. */
    static boolean isKnown(int opcode) {
        return opcode <= BINARY || (opcode >= CLOSE && opcode <= PONG);
    }

    static String name(int opcode) {
        return switch (opcode) {
            case CONTINUATION -> "continuation";
            case TEXT -> "text";
            case BINARY -> "binary";
            case CLOSE -> "close";
            case PING -> "ping";
            case PONG -> "pong";
            default -> "reserved 0x" + Integer.toHexString(opcode);
        };
    }
}
