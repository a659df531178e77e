package dev.weft.websocket.jakarta.endpoint;

import jakarta.websocket.CloseReason;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.Session;

/**
 * What a call of an annotated method can be given.
 *
 * @param session the session
 * @param config  the endpoint configuration (@OnOpen)
 * @param reason  the close reason (@OnClose)
 * @param error   the error (@OnError)
 * @param message the message, decoded (@OnMessage)
 * @param last    whether the message part is the last (@OnMessage, partial)
 */
record CallArguments(Session session, EndpointConfig config, CloseReason reason, Throwable error, Object message,
                     boolean last) {

    static CallArguments of(Session session) {
        return new CallArguments(session, null, null, null, null, true);
    }

    CallArguments withConfig(EndpointConfig c) {
        return new CallArguments(session, c, reason, error, message, last);
    }

    CallArguments withReason(CloseReason r) {
        return new CallArguments(session, config, r, error, message, last);
    }

    CallArguments withError(Throwable t) {
        return new CallArguments(session, config, reason, t, message, last);
    }

    CallArguments withMessage(Object m, boolean isLast) {
        return new CallArguments(session, config, reason, error, m, isLast);
    }
}
