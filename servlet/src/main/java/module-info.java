/**
 * Weft servlet: an embedded Jakarta Servlet 6.1 container on the Weft engine. Only the embedding API
 * ({@code dev.weft.servlet}) is exported.
 */
module dev.weft.servlet {
    requires transitive jakarta.servlet;
    requires transitive dev.weft.httpserver;

    exports dev.weft.servlet;

    uses jakarta.servlet.ServletContainerInitializer;
}
