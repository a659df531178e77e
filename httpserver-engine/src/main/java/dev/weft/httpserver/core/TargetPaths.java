package dev.weft.httpserver.core;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * What the API sees of a request target the protocol has already validated, for every protocol: the URI
 * {@code getRequestURI()} returns and the decoded path contexts are matched on.
 */
public final class TargetPaths {

    private TargetPaths() {
    }

    /** An authority-form target ({@code host:port}) as a {@code //host:port} URI, so getHost/getPort work. */
    public static URI authorityUri(String authority) throws URISyntaxException {
        return new URI(null, authority, null, null, null);
    }

    /** The decoded path of an origin-form target ({@code /a%20b?q} → {@code /a b}), as URI.getPath() gives it. */
    public static String originPath(String target) throws URISyntaxException {
        int q = target.indexOf('?');
        String raw = q < 0 ? target : target.substring(0, q);
        return raw.indexOf('%') < 0 ? raw : new URI(raw).getPath();
    }
}
