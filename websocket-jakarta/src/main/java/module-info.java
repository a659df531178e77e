/**
 * Weft Jakarta WebSocket: a Jakarta WebSocket 2.2 server container on the engine's WebSocket layer. Only the
 * entry points are exported: the container ({@code dev.weft.websocket.jakarta}) and its servlet initializer
 * ({@code dev.weft.websocket.jakarta.servlet}).
 */
module dev.weft.websocket.jakarta {
    requires transitive jakarta.websocket;
    requires transitive jakarta.websocket.client;
    requires transitive dev.weft.httpserver;
    // the servlet integration, used only when the application runs in Weft's servlet container
    requires static jakarta.servlet;
    requires static dev.weft.servlet;

    exports dev.weft.websocket.jakarta;
    exports dev.weft.websocket.jakarta.servlet;

    provides jakarta.websocket.server.ServerEndpointConfig.Configurator
            with dev.weft.websocket.jakarta.container.DefaultConfigurator;
    provides jakarta.servlet.ServletContainerInitializer
            with dev.weft.websocket.jakarta.servlet.WebSocketInitializer;
}
