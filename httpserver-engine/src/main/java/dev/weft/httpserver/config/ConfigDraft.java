package dev.weft.httpserver.config;

/** The three builders a whole configuration is assembled in, as the settings catalog writes to them. */
final class ConfigDraft {

    final ServerConfig.Builder server;
    final Http2Config.Builder http2;
    final WebSocketConfig.Builder webSocket;

    ConfigDraft(ServerConfig start) {
        server = start.toBuilder();
        http2 = start.http2().toBuilder();
        webSocket = start.webSocket().toBuilder();
    }

    ServerConfig build() {
        return server.http2(http2.build()).webSocket(webSocket.build()).build();
    }
}
