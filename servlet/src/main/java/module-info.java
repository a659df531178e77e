/**
 * Weft servlet: an embedded Jakarta Servlet 6.1 container on the Weft engine. Only the embedding API
 * ({@code dev.weft.servlet}) is exported to all; the exchange hand-over for the engine's own protocol layers
 * ({@code dev.weft.servlet.engine}) only to the Jakarta WebSocket container.
 */
module dev.weft.servlet {
    requires transitive jakarta.servlet;
    requires transitive dev.weft.httpserver;

    exports dev.weft.servlet;
    exports dev.weft.servlet.engine to dev.weft.websocket.jakarta;

    uses jakarta.servlet.ServletContainerInitializer;
}
