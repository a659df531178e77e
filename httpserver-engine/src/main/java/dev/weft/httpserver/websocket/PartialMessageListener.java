package dev.weft.httpserver.websocket;

import java.nio.ByteBuffer;

/**
 * A listener that receives text and binary messages in parts, as their frames arrive, for messages too
 * large to hold whole. {@code onText} and {@code onBinary} are not called for it. Each part is bounded by
 * {@code WebSocketConfig.maxFrameSize} (after decompression); a message's total size is not limited.
 */
public interface PartialMessageListener extends WebSocketListener {

    /**
     * The next part of a text message; text is validated as UTF-8 across parts, and a part never ends
     * inside a character.
     *
     * @param last whether this part ends the message
     */
    void onTextPart(WebSocketSession session, String part, boolean last) throws Exception;

    /**
     * The next part of a binary message; the buffer is the listener's to keep.
     *
     * @param last whether this part ends the message
     */
    void onBinaryPart(WebSocketSession session, ByteBuffer part, boolean last) throws Exception;
}
