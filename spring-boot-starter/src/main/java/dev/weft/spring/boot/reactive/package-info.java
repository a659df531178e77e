/**
 * Bridge from spring-web's reactive {@link org.springframework.http.server.reactive.HttpHandler} to the Weft
 * engine: {@link dev.weft.spring.boot.reactive.WeftHttpHandlerAdapter} is the engine handler, and every socket
 * read and write of an exchange stays on the connection's virtual thread.
 */
@NullMarked
package dev.weft.spring.boot.reactive;

import org.jspecify.annotations.NullMarked;
