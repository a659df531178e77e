/**
 * An embedded Jakarta Servlet 6.1 container on the Weft engine: the embedding API.
 *
 * <p>{@link dev.weft.servlet.ServletContainerConfig} says what the web application is made of;
 * {@link dev.weft.servlet.ServletContainer#create} builds its servlet context and runs its initializers;
 * {@link dev.weft.servlet.ServletContainer#mount} puts it on a Weft {@code HttpServer} or {@code HttpsServer},
 * so it is served over HTTP/1.1, h2c, h2 and TLS with the engine's limits;
 * {@link dev.weft.servlet.ServletContainer#start}, {@code stop} and {@code destroy} follow Spring Boot's
 * {@code WebServer} life cycle. See {@code docs/servlet.md}.
 */
package dev.weft.servlet;
