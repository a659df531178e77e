package dev.weft.httpserver.forwarded;

import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.proxyprotocol.ProxyHeader;
import dev.weft.httpserver.testing.TestServer;

/** A handler answering with what the exchange says of the request's origin, one fact per line, for tests. */
public final class OriginReport {

    private OriginReport() {
    }

    /** {@code remote=ip:port}, {@code scheme=}, {@code authority=}, {@code prefix=}, {@code tls=} lines. */
    public static HttpHandler handler() {
        return exchange -> {
            ClientOrigin o = Weft.origin(exchange);
            ProxyHeader proxy = (ProxyHeader) exchange.getAttribute(ExchangeAttributes.PROXY_HEADER);
            String text = "remote=" + exchange.getRemoteAddress().getHostString() + ":"
                    + exchange.getRemoteAddress().getPort() + "\nscheme=" + o.scheme() + "\nauthority=" + o.authority()
                    + "\nprefix=" + o.prefix() + "\nlocal=" + exchange.getLocalAddress().getPort()
                    + "\nproxy=" + (proxy == null ? null : "v" + proxy.version())
                    + "\ntls=" + (proxy == null ? null : proxy.tls()) + "\n";
            TestServer.respond(exchange, 200, text);
        };
    }
}
