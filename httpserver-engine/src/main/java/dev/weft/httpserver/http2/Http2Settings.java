package dev.weft.httpserver.http2;

import dev.weft.httpserver.config.Http2Config;

import java.util.ArrayList;
import java.util.List;

/**
 * An immutable set of HTTP/2 settings values (RFC 9113 §6.5.2, plus SETTINGS_ENABLE_CONNECT_PROTOCOL from
 * RFC 8441). Values are unsigned 32-bit numbers held in {@code long}s; "unlimited" is {@link #UNLIMITED}.
 */
public record Http2Settings(
        long headerTableSize,
        boolean enablePush,
        long maxConcurrentStreams,
        int initialWindowSize,
        int maxFrameSize,
        long maxHeaderListSize,
        boolean enableConnectProtocol) {

    public static final int HEADER_TABLE_SIZE = 0x1;
    public static final int ENABLE_PUSH = 0x2;
    public static final int MAX_CONCURRENT_STREAMS = 0x3;
    public static final int INITIAL_WINDOW_SIZE = 0x4;
    public static final int MAX_FRAME_SIZE = 0x5;
    public static final int MAX_HEADER_LIST_SIZE = 0x6;
    public static final int ENABLE_CONNECT_PROTOCOL = 0x8;

    /** Marks a limit the peer has not set (initial value "unlimited"). */
    public static final long UNLIMITED = -1;
    public static final int MAX_WINDOW_SIZE = Integer.MAX_VALUE;
    public static final int DEFAULT_WINDOW_SIZE = 65_535;
    public static final int DEFAULT_MAX_FRAME_SIZE = 16_384;
    public static final int MAX_MAX_FRAME_SIZE = 16_777_215;
    private static final long MAX_UINT32 = 0xFFFF_FFFFL;

    /** The initial values every endpoint assumes before the peer's first SETTINGS frame. */
    public static final Http2Settings DEFAULTS = new Http2Settings(
            4096, true, UNLIMITED, DEFAULT_WINDOW_SIZE, DEFAULT_MAX_FRAME_SIZE, UNLIMITED, false);

    /** One identifier/value pair of a SETTINGS frame payload; value is an unsigned 32-bit number. */
    public record Setting(int id, long value) {
        public Setting {
            if (id < 0 || id > 0xFFFF) {
                throw new IllegalArgumentException("setting id must be 16 bits: " + id);
            }
            if (value < 0 || value > MAX_UINT32) {
                throw new IllegalArgumentException("setting value must be 32 bits: " + value);
            }
        }
    }

    public Http2Settings {
        if (initialWindowSize < 0) {
            throw new IllegalArgumentException("initialWindowSize above 2^31-1: " + initialWindowSize);
        }
        if (maxFrameSize < DEFAULT_MAX_FRAME_SIZE || maxFrameSize > MAX_MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("maxFrameSize outside 16384..16777215: " + maxFrameSize);
        }
    }

    /**
     * Checks one received setting against its valid range (§6.5.2). Unknown identifiers are accepted (they
     * are ignored).
     *
     * @throws Http2ConnectionException PROTOCOL_ERROR or FLOW_CONTROL_ERROR, as the RFC prescribes
     */
    public static void validate(int id, long value) throws Http2ConnectionException {
        switch (id) {
            case ENABLE_PUSH, ENABLE_CONNECT_PROTOCOL -> {
                if (value != 0 && value != 1) {
                    throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR,
                            "setting 0x" + Integer.toHexString(id) + " must be 0 or 1, was " + value);
                }
            }
            case INITIAL_WINDOW_SIZE -> {
                if (value < 0 || value > MAX_WINDOW_SIZE) {
                    throw new Http2ConnectionException(ErrorCode.FLOW_CONTROL_ERROR,
                            "SETTINGS_INITIAL_WINDOW_SIZE above 2^31-1: " + value);
                }
            }
            case MAX_FRAME_SIZE -> {
                if (value < DEFAULT_MAX_FRAME_SIZE || value > MAX_MAX_FRAME_SIZE) {
                    throw new Http2ConnectionException(ErrorCode.PROTOCOL_ERROR,
                            "SETTINGS_MAX_FRAME_SIZE outside 16384..16777215: " + value);
                }
            }
            default -> {
                // other known settings accept any 32-bit value; unknown ones are ignored
            }
        }
    }

    /** These settings with one value changed; unknown identifiers are ignored. */
    public Http2Settings with(int id, long value) throws Http2ConnectionException {
        validate(id, value);
        return switch (id) {
            case HEADER_TABLE_SIZE -> new Http2Settings(value, enablePush, maxConcurrentStreams,
                    initialWindowSize, maxFrameSize, maxHeaderListSize, enableConnectProtocol);
            case ENABLE_PUSH -> new Http2Settings(headerTableSize, value == 1, maxConcurrentStreams,
                    initialWindowSize, maxFrameSize, maxHeaderListSize, enableConnectProtocol);
            case MAX_CONCURRENT_STREAMS -> new Http2Settings(headerTableSize, enablePush, value,
                    initialWindowSize, maxFrameSize, maxHeaderListSize, enableConnectProtocol);
            case INITIAL_WINDOW_SIZE -> new Http2Settings(headerTableSize, enablePush, maxConcurrentStreams,
                    (int) value, maxFrameSize, maxHeaderListSize, enableConnectProtocol);
            case MAX_FRAME_SIZE -> new Http2Settings(headerTableSize, enablePush, maxConcurrentStreams,
                    initialWindowSize, (int) value, maxHeaderListSize, enableConnectProtocol);
            case MAX_HEADER_LIST_SIZE -> new Http2Settings(headerTableSize, enablePush, maxConcurrentStreams,
                    initialWindowSize, maxFrameSize, value, enableConnectProtocol);
            case ENABLE_CONNECT_PROTOCOL -> new Http2Settings(headerTableSize, enablePush, maxConcurrentStreams,
                    initialWindowSize, maxFrameSize, maxHeaderListSize, value == 1);
            default -> this;
        };
    }

    /** These settings with every entry of a SETTINGS frame applied in order (§6.5.3). */
    public Http2Settings apply(List<Setting> entries) throws Http2ConnectionException {
        Http2Settings result = this;
        for (Setting s : entries) {
            result = result.with(s.id(), s.value());
        }
        return result;
    }

    /** The settings a server announces in its preface: those of {@code config} that differ from the defaults. */
    static List<Setting> announcedBy(Http2Config config) {
        Http2Settings ours = new Http2Settings(config.headerTableSize(), false, config.maxConcurrentStreams(),
                config.initialWindowSize(), config.maxFrameSize(), config.maxHeaderListSize(),
                config.extendedConnect()); // RFC 8441 §3: SETTINGS_ENABLE_CONNECT_PROTOCOL = 1
        List<Setting> entries = new ArrayList<>(ours.differencesFrom(DEFAULTS));
        entries.removeIf(s -> s.id() == ENABLE_PUSH); // a server never sends ENABLE_PUSH
        return entries;
    }

    /** The entries a SETTINGS frame needs to move a peer from {@code base} to these settings. */
    public List<Setting> differencesFrom(Http2Settings base) {
        List<Setting> out = new ArrayList<>();
        if (headerTableSize != base.headerTableSize) {
            out.add(new Setting(HEADER_TABLE_SIZE, headerTableSize));
        }
        if (enablePush != base.enablePush) {
            out.add(new Setting(ENABLE_PUSH, enablePush ? 1 : 0));
        }
        if (maxConcurrentStreams != base.maxConcurrentStreams && maxConcurrentStreams != UNLIMITED) {
            out.add(new Setting(MAX_CONCURRENT_STREAMS, maxConcurrentStreams));
        }
        if (initialWindowSize != base.initialWindowSize) {
            out.add(new Setting(INITIAL_WINDOW_SIZE, initialWindowSize));
        }
        if (maxFrameSize != base.maxFrameSize) {
            out.add(new Setting(MAX_FRAME_SIZE, maxFrameSize));
        }
        if (maxHeaderListSize != base.maxHeaderListSize && maxHeaderListSize != UNLIMITED) {
            out.add(new Setting(MAX_HEADER_LIST_SIZE, maxHeaderListSize));
        }
        if (enableConnectProtocol != base.enableConnectProtocol) {
            out.add(new Setting(ENABLE_CONNECT_PROTOCOL, enableConnectProtocol ? 1 : 0));
        }
        return List.copyOf(out);
    }

    /**
     * Returns {@code size} if it is a legal SETTINGS_MAX_FRAME_SIZE (RFC 9113 §6.5.2: 16,384 to 16,777,215).
     *
     * @throws IllegalArgumentException otherwise
     */
    public static int requireValidMaxFrameSize(int size) {
        if (size < DEFAULT_MAX_FRAME_SIZE || size > MAX_MAX_FRAME_SIZE) {
            throw new IllegalArgumentException("max frame size outside 16384..16777215: " + size);
        }
        return size;
    }
}
