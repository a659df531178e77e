package dev.weft.httpserver.config;


/**
 * HTTP/2 settings and limits of one server, part of {@link ServerConfig}.
 *
 * <p>Every count a client controls has a limit here; a client that exceeds a rate budget gets
 * {@code GOAWAY ENHANCE_YOUR_CALM}. Build one with {@link #builder()}; {@link #defaults()} gives the
 * documented defaults.
 *
 * @param h2Enabled             whether an {@code HttpsServer} offers {@code h2} by ALPN (default true)
 * @param h2cEnabled            whether a cleartext server accepts HTTP/2 with prior knowledge, detected by the
 *                              connection preface (default true)
 * @param maxConcurrentStreams  most streams a client may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS);
 *                              more are refused with {@code REFUSED_STREAM} (default 128)
 * @param initialWindowSize     receive window of each stream in bytes (SETTINGS_INITIAL_WINDOW_SIZE): how much
 *                              request body is buffered before the handler reads it (default 128 KiB)
 * @param connectionWindowSize  receive window of the whole connection in bytes (default 1 MiB)
 * @param maxFrameSize          largest frame payload accepted (SETTINGS_MAX_FRAME_SIZE, 16 KiB to 16 MiB - 1;
 *                              default 16 KiB)
 * @param maxHeaderListSize     largest decoded header list (names, values and 32 bytes per field, RFC 9113
 *                              §6.5.2); larger gets {@code 431} (default 16 KiB)
 * @param headerTableSize       size of the HPACK table for decoding requests (SETTINGS_HEADER_TABLE_SIZE;
 *                              default 4096)
 * @param maxResetsPerSecond    average rate of stream resets (by the client, of closed streams too, or by us for
 *                              client errors) tolerated per connection, with bursts of twice this (rapid reset,
 *                              CVE-2023-44487; default 100)
 * @param maxControlFramesPerSecond average rate of frames that cost work but carry nothing a client needs (PING,
 *                              SETTINGS, PRIORITY, unknown types, empty DATA, HEADERS and CONTINUATION, frames
 *                              ignored on a stream we reset, WINDOW_UPDATEs that return no credit for data we sent)
 *                              tolerated per connection, with bursts of twice this (default 200)
 * @param extendedConnect       whether the server announces SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 and accepts
 *                              extended {@code CONNECT} requests carrying {@code :protocol}, as WebSockets over
 *                              HTTP/2 use (RFC 8441 §3, §4); when off, {@code :protocol} is a malformed request
 *                              ({@code RST_STREAM PROTOCOL_ERROR}) (default true)
 */
public record Http2Config(
        boolean h2Enabled,
        boolean h2cEnabled,
        int maxConcurrentStreams,
        int initialWindowSize,
        int connectionWindowSize,
        int maxFrameSize,
        int maxHeaderListSize,
        int headerTableSize,
        int maxResetsPerSecond,
        int maxControlFramesPerSecond,
        boolean extendedConnect) {

    private static final Http2Config DEFAULTS = new Builder().build();

    /** Validates every setting; use {@link #builder()} rather than this constructor. */
    public Http2Config {
        Settings.H2_ENABLED.check(h2Enabled);
        Settings.H2C_ENABLED.check(h2cEnabled);
        Settings.HTTP2_MAX_CONCURRENT_STREAMS.check(maxConcurrentStreams);
        Settings.HTTP2_INITIAL_WINDOW_SIZE.check(initialWindowSize);
        Settings.HTTP2_CONNECTION_WINDOW_SIZE.check(connectionWindowSize);
        Settings.HTTP2_MAX_FRAME_SIZE.check(maxFrameSize);
        Settings.HTTP2_MAX_HEADER_LIST_SIZE.check(maxHeaderListSize);
        Settings.HTTP2_HEADER_TABLE_SIZE.check(headerTableSize);
        Settings.HTTP2_MAX_RESETS_PER_SECOND.check(maxResetsPerSecond);
        Settings.HTTP2_MAX_CONTROL_FRAMES_PER_SECOND.check(maxControlFramesPerSecond);
        Settings.HTTP2_EXTENDED_CONNECT.check(extendedConnect);
    }

    /** The documented defaults. */
    public static Http2Config defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Mutable builder of an {@link Http2Config}; {@link #build()} validates. */
    public static final class Builder {
        private boolean h2Enabled = Settings.H2_ENABLED.defaultValue();
        private boolean h2cEnabled = Settings.H2C_ENABLED.defaultValue();
        private int maxConcurrentStreams = Settings.HTTP2_MAX_CONCURRENT_STREAMS.defaultValue();
        private int initialWindowSize = Settings.HTTP2_INITIAL_WINDOW_SIZE.defaultValue();
        private int connectionWindowSize = Settings.HTTP2_CONNECTION_WINDOW_SIZE.defaultValue();
        private int maxFrameSize = Settings.HTTP2_MAX_FRAME_SIZE.defaultValue();
        private int maxHeaderListSize = Settings.HTTP2_MAX_HEADER_LIST_SIZE.defaultValue();
        private int headerTableSize = Settings.HTTP2_HEADER_TABLE_SIZE.defaultValue();
        private int maxResetsPerSecond = Settings.HTTP2_MAX_RESETS_PER_SECOND.defaultValue();
        private int maxControlFramesPerSecond = Settings.HTTP2_MAX_CONTROL_FRAMES_PER_SECOND.defaultValue();
        private boolean extendedConnect = Settings.HTTP2_EXTENDED_CONNECT.defaultValue();

        private Builder() {
        }

        private Builder(Http2Config c) {
            h2Enabled = c.h2Enabled;
            h2cEnabled = c.h2cEnabled;
            maxConcurrentStreams = c.maxConcurrentStreams;
            initialWindowSize = c.initialWindowSize;
            connectionWindowSize = c.connectionWindowSize;
            maxFrameSize = c.maxFrameSize;
            maxHeaderListSize = c.maxHeaderListSize;
            headerTableSize = c.headerTableSize;
            maxResetsPerSecond = c.maxResetsPerSecond;
            maxControlFramesPerSecond = c.maxControlFramesPerSecond;
            extendedConnect = c.extendedConnect;
        }

        /** @see Http2Config#h2Enabled() */
        public Builder h2Enabled(boolean on) { h2Enabled = on; return this; }

        /** @see Http2Config#h2cEnabled() */
        public Builder h2cEnabled(boolean on) { h2cEnabled = on; return this; }

        /** @see Http2Config#maxConcurrentStreams() */
        public Builder maxConcurrentStreams(int n) { maxConcurrentStreams = n; return this; }

        /** @see Http2Config#initialWindowSize() */
        public Builder initialWindowSize(int bytes) { initialWindowSize = bytes; return this; }

        /** @see Http2Config#connectionWindowSize() */
        public Builder connectionWindowSize(int bytes) { connectionWindowSize = bytes; return this; }

        /** @see Http2Config#maxFrameSize() */
        public Builder maxFrameSize(int bytes) { maxFrameSize = bytes; return this; }

        /** @see Http2Config#maxHeaderListSize() */
        public Builder maxHeaderListSize(int bytes) { maxHeaderListSize = bytes; return this; }

        /** @see Http2Config#headerTableSize() */
        public Builder headerTableSize(int bytes) { headerTableSize = bytes; return this; }

        /** @see Http2Config#maxResetsPerSecond() */
        public Builder maxResetsPerSecond(int n) { maxResetsPerSecond = n; return this; }

        /** @see Http2Config#maxControlFramesPerSecond() */
        public Builder maxControlFramesPerSecond(int n) { maxControlFramesPerSecond = n; return this; }

        /** @see Http2Config#extendedConnect() */
        public Builder extendedConnect(boolean on) { extendedConnect = on; return this; }

        /** Validates and returns the configuration. */
        public Http2Config build() {
            return new Http2Config(h2Enabled, h2cEnabled, maxConcurrentStreams, initialWindowSize,
                    connectionWindowSize, maxFrameSize, maxHeaderListSize, headerTableSize, maxResetsPerSecond,
                    maxControlFramesPerSecond, extendedConnect);
        }
    }
}
