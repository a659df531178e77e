package dev.weft.httpserver.core;

import java.io.IOException;
import java.net.Socket;

/** Turns an accepted socket into the socket requests are read from, e.g. by a TLS handshake. */
@FunctionalInterface
public interface TransportSecurity {

    /** Cleartext: the accepted socket itself. */
    TransportSecurity NONE = socket -> socket;

    /**
     * Returns the socket to serve; runs on the connection's own thread, never on the acceptor.
     *
     * @throws IOException if the handshake fails or times out
     */
    Socket secure(Socket accepted) throws IOException;

    /** Whether this adds TLS (a refused connection then gets no plaintext answer). */
    default boolean encrypts() {
        return this != NONE;
    }
}
