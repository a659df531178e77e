package dev.weft.websocket.jakarta.coding;

import java.nio.ByteBuffer;

/**
 * An object encoded for sending: a text message or a binary one.
 *
 * @param text   the text message, or null
 * @param binary the binary message, or null
 */
public record Encoded(String text, ByteBuffer binary) {
}
