package dev.weft.httpserver.config;

import static dev.weft.httpserver.config.SettingChecks.notNegative;
import static dev.weft.httpserver.config.SettingChecks.positive;

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
        positive("maxConcurrentStreams", maxConcurrentStreams);
        positive("initialWindowSize", initialWindowSize);
        if (connectionWindowSize < 65_535) {
            throw new IllegalArgumentException("connectionWindowSize must be at least 65535, was "
                    + connectionWindowSize);
        }
        if (maxFrameSize < 16_384 || maxFrameSize > 16_777_215) {
            throw new IllegalArgumentException("maxFrameSize must be 16384..16777215, was " + maxFrameSize);
        }
        positive("maxHeaderListSize", maxHeaderListSize);
        notNegative("headerTableSize", headerTableSize);
        positive("maxResetsPerSecond", maxResetsPerSecond);
        positive("maxControlFramesPerSecond", maxControlFramesPerSecond);
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
        private boolean h2Enabled = true;
        private boolean h2cEnabled = true;
        private int maxConcurrentStreams = 128;
        private int initialWindowSize = 128 * 1024;
        private int connectionWindowSize = 1024 * 1024;
        private int maxFrameSize = 16_384;
        private int maxHeaderListSize = 16 * 1024;
        private int headerTableSize = 4096;
        private int maxResetsPerSecond = 100;
        private int maxControlFramesPerSecond = 200;
        private boolean extendedConnect = true;

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
