package dev.weft.httpserver.config;

import java.time.Duration;


/**
 * WebSocket settings and limits of one server, part of {@link ServerConfig}; a
 * {@code dev.weft.httpserver.websocket.WebSocketHandler} may carry its own.
 *
 * <p>Every size and time a client controls has a limit here. Build one with {@link #builder()};
 * {@link #defaults()} gives the documented defaults.
 *
 * @param maxMessageSize   largest whole text or binary message in bytes, after decompression; larger closes
 *                         the session with {@code 1009} (default 1 MiB). Listeners that take messages in parts
 *                         are bounded by {@code maxFrameSize} per part instead, and by this in total only
 *                         when they ask for it ({@code PartialMessageListener.Delivery.PARTS_WITHIN_LIMIT}).
 * @param maxFrameSize     largest frame payload in bytes as announced by its header; larger closes with
 *                         {@code 1009} (default 1 MiB)
 * @param compression      whether permessage-deflate (RFC 7692) is accepted when a client offers it
 *                         (default true)
 * @param compressionMinSize smallest outgoing message that is compressed when compression was negotiated;
 *                         smaller ones are sent as they are (default 64 bytes)
 * @param idleTimeout      a session that receives nothing for this long is closed with {@code 1001}
 *                         (default 5 minutes)
 * @param pingInterval     when positive, the server pings a session that has received nothing for this long,
 *                         so live peers stay open and dead ones reach the idle timeout; zero disables
 *                         (default zero)
 * @param closeTimeout     how long to wait for the peer's close frame after sending ours before the
 *                         connection is dropped (default 5 s)
 * @param maxQueuedBytes   most bytes of messages queued by the non-blocking sends of one session; a send
 *                         beyond it fails at once (default 16 MiB)
 */
public record WebSocketConfig(
        int maxMessageSize,
        int maxFrameSize,
        boolean compression,
        int compressionMinSize,
        Duration idleTimeout,
        Duration pingInterval,
        Duration closeTimeout,
        long maxQueuedBytes) {

    private static final WebSocketConfig DEFAULTS = new Builder().build();

    /** Validates every setting; use {@link #builder()} rather than this constructor. */
    public WebSocketConfig {
        Settings.WEBSOCKET_MAX_MESSAGE_SIZE.check(maxMessageSize);
        Settings.WEBSOCKET_MAX_FRAME_SIZE.check(maxFrameSize);
        Settings.WEBSOCKET_COMPRESSION.check(compression);
        Settings.WEBSOCKET_COMPRESSION_MIN_SIZE.check(compressionMinSize);
        Settings.WEBSOCKET_IDLE_TIMEOUT.check(idleTimeout);
        Settings.WEBSOCKET_PING_INTERVAL.check(pingInterval);
        Settings.WEBSOCKET_CLOSE_TIMEOUT.check(closeTimeout);
        Settings.WEBSOCKET_MAX_QUEUED_BYTES.check(maxQueuedBytes);
    }

    /** The documented defaults. */
    public static WebSocketConfig defaults() {
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

    /** Mutable builder of a {@link WebSocketConfig}; {@link #build()} validates. */
    public static final class Builder {
        private int maxMessageSize = Settings.WEBSOCKET_MAX_MESSAGE_SIZE.defaultValue();
        private int maxFrameSize = Settings.WEBSOCKET_MAX_FRAME_SIZE.defaultValue();
        private boolean compression = Settings.WEBSOCKET_COMPRESSION.defaultValue();
        private int compressionMinSize = Settings.WEBSOCKET_COMPRESSION_MIN_SIZE.defaultValue();
        private Duration idleTimeout = Settings.WEBSOCKET_IDLE_TIMEOUT.defaultValue();
        private Duration pingInterval = Settings.WEBSOCKET_PING_INTERVAL.defaultValue();
        private Duration closeTimeout = Settings.WEBSOCKET_CLOSE_TIMEOUT.defaultValue();
        private long maxQueuedBytes = Settings.WEBSOCKET_MAX_QUEUED_BYTES.defaultValue();

        private Builder() {
        }

        private Builder(WebSocketConfig c) {
            maxMessageSize = c.maxMessageSize;
            maxFrameSize = c.maxFrameSize;
            compression = c.compression;
            compressionMinSize = c.compressionMinSize;
            idleTimeout = c.idleTimeout;
            pingInterval = c.pingInterval;
            closeTimeout = c.closeTimeout;
            maxQueuedBytes = c.maxQueuedBytes;
        }

        /** @see WebSocketConfig#maxMessageSize() */
        public Builder maxMessageSize(int bytes) { maxMessageSize = bytes; return this; }

        /** @see WebSocketConfig#maxFrameSize() */
        public Builder maxFrameSize(int bytes) { maxFrameSize = bytes; return this; }

        /** @see WebSocketConfig#compression() */
        public Builder compression(boolean on) { compression = on; return this; }

        /** @see WebSocketConfig#compressionMinSize() */
        public Builder compressionMinSize(int bytes) { compressionMinSize = bytes; return this; }

        /** @see WebSocketConfig#idleTimeout() */
        public Builder idleTimeout(Duration d) { idleTimeout = d; return this; }

        /** @see WebSocketConfig#pingInterval() */
        public Builder pingInterval(Duration d) { pingInterval = d; return this; }

        /** @see WebSocketConfig#closeTimeout() */
        public Builder closeTimeout(Duration d) { closeTimeout = d; return this; }

        /** @see WebSocketConfig#maxQueuedBytes() */
        public Builder maxQueuedBytes(long bytes) { maxQueuedBytes = bytes; return this; }

        /** Validates and returns the configuration. */
        public WebSocketConfig build() {
            return new WebSocketConfig(maxMessageSize, maxFrameSize, compression, compressionMinSize, idleTimeout,
                    pingInterval, closeTimeout, maxQueuedBytes);
        }
    }
}
