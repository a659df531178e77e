package dev.weft.micronaut.demo;

import io.micronaut.runtime.Micronaut;

/**
 * The Micronaut demo on Weft: {@code java -jar weft-micronaut-demo-*.jar} (or {@code ./run-micronaut-demo}), then
 * http://localhost:8080/. Another port: {@code -Dmicronaut.server.port=9090} ({@code -1}: a random one).
 */
public final class DemoApplication {

    private DemoApplication() {
    }

    public static void main(String[] args) {
        Micronaut.run(DemoApplication.class, args);
    }
}
