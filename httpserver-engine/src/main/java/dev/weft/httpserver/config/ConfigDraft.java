package dev.weft.httpserver.config;

/** The builders a whole configuration is assembled in, as the settings catalog writes to them. */
final class ConfigDraft {

    final ServerConfig.Builder server;
    final AccessLogConfig.Builder accessLog;
    final ThreadsConfig.Builder threads;
    final Http2Config.Builder http2;
    final WebSocketConfig.Builder webSocket;
    final ForwardedConfig.Builder forwarded;

    ConfigDraft(ServerConfig start) {
        server = start.toBuilder();
        accessLog = start.accessLog().toBuilder();
        threads = start.threads().toBuilder();
        http2 = start.http2().toBuilder();
        webSocket = start.webSocket().toBuilder();
        forwarded = start.forwarded().toBuilder();
    }

    ServerConfig build() {
        return server.accessLog(accessLog.build()).threads(threads.build()).http2(http2.build())
                .webSocket(webSocket.build()).forwarded(forwarded.build()).build();
    }
}
