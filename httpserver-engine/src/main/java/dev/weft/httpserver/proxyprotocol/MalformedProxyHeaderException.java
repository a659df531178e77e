package dev.weft.httpserver.proxyprotocol;

import java.io.IOException;

/** A connection did not start with a valid PROXY protocol header. */
public final class MalformedProxyHeaderException extends IOException {

    private static final long serialVersionUID = 1L;

    public MalformedProxyHeaderException(String message) {
        super(message);
    }
}
