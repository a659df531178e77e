package dev.weft.httpserver.websocket;

import java.nio.ByteBuffer;

/**
 * A listener that receives text and binary messages in parts, as their frames arrive, for messages too
 * large to hold whole. {@code onText} and {@code onBinary} are not called for it unless {@link #delivery}
 * asks for a message whole. Each part is bounded by {@code WebSocketConfig.maxFrameSize} (after
 * decompression); a message's total size is not limited unless {@link #delivery} says
 * {@link Delivery#PARTS_WITHIN_LIMIT}.
 */
public interface PartialMessageListener extends WebSocketListener {

    /** How one text or binary message reaches the listener. */
    enum Delivery {
        /** Whole, through {@code onText}/{@code onBinary}, under {@code maxMessageSize} as for any listener. */
        WHOLE,
        /** In parts as its frames arrive; the message's total size is not limited. */
        PARTS,
        /**
         * In parts as its frames arrive; once its total (after decompression) passes {@code maxMessageSize}
         * the session closes with {@code 1009}, before the part that passes it is delivered.
         */
        PARTS_WITHIN_LIMIT
    }

    /**
     * How the message whose first frame has just arrived is delivered: asked once per text or binary message,
     * on the session's thread, so a listener whose handlers change during the session can choose per message.
     * The default is {@link Delivery#PARTS}.
     *
     * @param text whether the message is a text message
     */
    default Delivery delivery(boolean text) {
        return Delivery.PARTS;
    }

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
