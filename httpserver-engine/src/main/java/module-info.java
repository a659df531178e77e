/**
 * Weft: a fast, strict implementation of the JDK's {@code com.sun.net.httpserver} API on virtual threads.
 */
module dev.weft.httpserver {
    requires transitive jdk.httpserver;
    // the CPU load that sizes the platform threads handlers run on (threads.virtual off)
    requires jdk.management;

    exports dev.weft.httpserver;
    exports dev.weft.httpserver.config;
    exports dev.weft.httpserver.files;
    exports dev.weft.httpserver.forms;
    exports dev.weft.httpserver.stats;
    exports dev.weft.httpserver.spi;
    exports dev.weft.httpserver.websocket;
    exports dev.weft.httpserver.proxy;
    exports dev.weft.httpserver.forwarded;
    exports dev.weft.httpserver.proxyprotocol;

    provides com.sun.net.httpserver.spi.HttpServerProvider with dev.weft.httpserver.spi.WeftHttpServerProvider;
}
