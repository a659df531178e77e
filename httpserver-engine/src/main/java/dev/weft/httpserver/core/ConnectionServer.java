package dev.weft.httpserver.core;

import java.io.IOException;

/** Speaks one protocol on an opened connection until it should close; runs on the connection's thread. */
@FunctionalInterface
public interface ConnectionServer {

    /** Serves requests on {@code connection}; returning or throwing ends the connection. */
    void serve(Connection connection) throws IOException;
}
