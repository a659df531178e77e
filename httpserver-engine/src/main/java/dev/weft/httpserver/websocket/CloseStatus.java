package dev.weft.httpserver.websocket;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The status of a WebSocket close (RFC 6455 §7.4): a code and a reason of at most 123 UTF-8 bytes.
 *
 * @param code   the close code; {@link #NO_STATUS} and {@link #ABNORMAL} are only ever reported, never sent
 * @param reason the reason, possibly empty
 */
public record CloseStatus(int code, String reason) {

    /** 1000: the purpose of the session was fulfilled. */
    public static final int NORMAL = 1000;
    /** 1001: an endpoint is going away (server stopping, idle timeout, page closed). */
    public static final int GOING_AWAY = 1001;
    /** 1002: the peer broke the protocol. */
    public static final int PROTOCOL_ERROR = 1002;
    /** 1003: a data type the endpoint cannot accept. */
    public static final int UNSUPPORTED_DATA = 1003;
    /** 1005: the close frame carried no code (reported only). */
    public static final int NO_STATUS = 1005;
    /** 1006: the connection ended without a close frame (reported only). */
    public static final int ABNORMAL = 1006;
    /** 1007: a text message was not valid UTF-8. */
    public static final int INVALID_PAYLOAD = 1007;
    /** 1008: a message broke the endpoint's policy. */
    public static final int POLICY_VIOLATION = 1008;
    /** 1009: a message or frame was larger than the endpoint's limit. */
    public static final int MESSAGE_TOO_BIG = 1009;
    /** 1010: the client needed an extension the server did not negotiate. */
    public static final int MANDATORY_EXTENSION = 1010;
    /** 1011: the server hit an unexpected condition (a listener threw). */
    public static final int INTERNAL_ERROR = 1011;

    /** Most bytes a close reason may take in UTF-8 (RFC 6455 §5.5: 125 bytes of payload less the code). */
    public static final int MAX_REASON_BYTES = 123;

    /** Checks that {@code reason} is not null. */
    public CloseStatus {
        Objects.requireNonNull(reason, "reason");
    }

    /**
     * Whether {@code code} may be sent in a close frame (RFC 6455 §7.4.1 and §7.4.2): 1000–1003, 1007–1014
     * and 3000–4999.
     */
    public static boolean isSendable(int code) {
        return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
    }

    /**
     * {@code reason} cut to at most {@link #MAX_REASON_BYTES} bytes of UTF-8 on a character boundary, for code
     * that passes on a reason of any length; {@code null} becomes empty.
     */
    public static String truncateReason(String reason) {
        if (reason == null) {
            return "";
        }
        byte[] utf8 = reason.getBytes(StandardCharsets.UTF_8);
        if (utf8.length <= MAX_REASON_BYTES) {
            return reason;
        }
        int end = MAX_REASON_BYTES;
        while (end > 0 && (utf8[end] & 0xC0) == 0x80) {
            end--; // do not cut a character in two
        }
        return new String(utf8, 0, end, StandardCharsets.UTF_8);
    }
}
