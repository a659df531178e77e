package dev.weft.spring.boot.autoconfigure;

import dev.weft.httpserver.config.Setting;
import dev.weft.httpserver.config.WebSocketConfig;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.Errors;

import java.time.Duration;

/**
 * WebSocket settings and limits ({@code weft.server.websocket.*}) of the sessions a WebFlux
 * {@code WebSocketHandler} runs on Weft, and the Jakarta WebSocket sessions of a servlet application
 * (spring-websocket, STOMP), over HTTP/1.1 and HTTP/2 alike. Defaults are the engine's.
 */
public class WeftWebSocketProperties {

    /**
     * Largest whole text or binary message received, after decompression. A larger one closes the session
     * with status 1009 (message too big).
     */
    private DataSize maxMessageSize = DataSize.ofMegabytes(1);

    /**
     * Largest frame payload received, as announced by the frame's header. A larger one closes the session with
     * status 1009.
     */
    private DataSize maxFrameSize = DataSize.ofMegabytes(1);

    /**
     * Whether permessage-deflate compression (RFC 7692) is accepted when a client offers it.
     */
    private boolean compression = true;

    /**
     * Smallest outgoing message that is compressed when compression was negotiated; smaller ones are sent as
     * they are.
     */
    private DataSize compressionMinSize = DataSize.ofBytes(64);

    /**
     * A session that receives nothing for this long is closed with status 1001 (going away).
     */
    private Duration idleTimeout = Duration.ofMinutes(5);

    /**
     * When positive, the server pings a session that has received nothing for this long, so that live peers
     * stay open and dead ones reach the idle timeout. Zero disables pings.
     */
    private Duration pingInterval = Duration.ZERO;

    /**
     * How long to wait for the peer's close frame after sending ours before the connection is dropped.
     */
    private Duration closeTimeout = Duration.ofSeconds(5);

    /**
     * Most bytes of messages queued by the non-blocking sends of one session; a send beyond it fails at once.
     */
    private DataSize maxQueuedBytes = DataSize.ofMegabytes(16);

    public DataSize getMaxMessageSize() {
        return maxMessageSize;
    }

    public void setMaxMessageSize(DataSize maxMessageSize) {
        this.maxMessageSize = maxMessageSize;
    }

    public DataSize getMaxFrameSize() {
        return maxFrameSize;
    }

    public void setMaxFrameSize(DataSize maxFrameSize) {
        this.maxFrameSize = maxFrameSize;
    }

    public boolean isCompression() {
        return compression;
    }

    public void setCompression(boolean compression) {
        this.compression = compression;
    }

    public DataSize getCompressionMinSize() {
        return compressionMinSize;
    }

    public void setCompressionMinSize(DataSize compressionMinSize) {
        this.compressionMinSize = compressionMinSize;
    }

    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    public void setIdleTimeout(Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
    }

    public Duration getPingInterval() {
        return pingInterval;
    }

    public void setPingInterval(Duration pingInterval) {
        this.pingInterval = pingInterval;
    }

    public Duration getCloseTimeout() {
        return closeTimeout;
    }

    public void setCloseTimeout(Duration closeTimeout) {
        this.closeTimeout = closeTimeout;
    }

    public DataSize getMaxQueuedBytes() {
        return maxQueuedBytes;
    }

    public void setMaxQueuedBytes(DataSize maxQueuedBytes) {
        this.maxQueuedBytes = maxQueuedBytes;
    }

    /**
     * The engine's WebSocket configuration with these values.
     *
     * @throws IllegalArgumentException if a value is out of the engine's range
     */
    public WebSocketConfig toConfig() {
        if (maxQueuedBytes == null) {
            throw new IllegalArgumentException("maxQueuedBytes must be set");
        }
        return WebSocketConfig.builder()
                .maxMessageSize(EngineSettings.bytes("maxMessageSize", maxMessageSize))
                .maxFrameSize(EngineSettings.bytes("maxFrameSize", maxFrameSize))
                .compression(compression)
                .compressionMinSize(EngineSettings.bytes("compressionMinSize", compressionMinSize))
                .idleTimeout(idleTimeout)
                .pingInterval(pingInterval)
                .closeTimeout(closeTimeout)
                .maxQueuedBytes(maxQueuedBytes.toBytes())
                .build();
    }

    void validate(Errors errors) {
        EngineSettings.validate(errors, "weft.server.websocket", Setting.Group.WEBSOCKET, this::toConfig);
    }
}
