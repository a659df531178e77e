package dev.weft.websocket.jakarta.session;

/**
 * The container's defaults a new session starts with (all settable on the container at runtime).
 *
 * @param maxIdleMillis     idle timeout in ms; zero or less: the engine's idle timeout only
 * @param maxTextBytes      largest whole text message in bytes of UTF-8; zero or less: the engine's limit only
 * @param maxBinaryBytes    largest whole binary message in bytes; zero or less: the engine's limit only
 * @param sendTimeoutMillis async send timeout in ms; zero or less: none
 */
public record SessionDefaults(long maxIdleMillis, int maxTextBytes, int maxBinaryBytes, long sendTimeoutMillis) {
}
