/**
 * Weft Jakarta WebSocket: a Jakarta WebSocket 2.2 server container on the engine's WebSocket layer. Only the
 * entry points ({@code dev.weft.websocket.jakarta}) are exported.
 */
module dev.weft.websocket.jakarta {
    requires transitive jakarta.websocket;
    requires transitive jakarta.websocket.client;
    requires transitive dev.weft.httpserver;
    // the servlet integration, used only when the application runs in Weft's servlet container
    requires static jakarta.servlet;
    requires static dev.weft.servlet;

    exports dev.weft.websocket.jakarta;

    provides jakarta.websocket.server.ServerEndpointConfig.Configurator
            with dev.weft.websocket.jakarta.container.DefaultConfigurator;
    provides jakarta.servlet.ServletContainerInitializer
            with dev.weft.websocket.jakarta.servlet.WebSocketInitializer;
}
