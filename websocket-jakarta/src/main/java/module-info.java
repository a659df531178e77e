/**
 * Weft Jakarta WebSocket: a Jakarta WebSocket 2.2 server container on the engine's WebSocket layer. Only the
 * entry points ({@code dev.weft.websocket.jakarta}) are exported.
 */
module dev.weft.websocket.jakarta {
    requires transitive jakarta.websocket;
    requires transitive jakarta.websocket.client;
    requires transitive dev.weft.httpserver;

    exports dev.weft.websocket.jakarta;

    provides jakarta.websocket.server.ServerEndpointConfig.Configurator
            with dev.weft.websocket.jakarta.container.DefaultConfigurator;
}
