package dev.weft.mvcdemo;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring MVC application on Weft's servlet container: server-rendered pages (Thymeleaf), a JSON API, a form
 * with file upload, a session counter, a server-sent-events stream, a STOMP chat over WebSocket, Spring Security
 * form login and Actuator. Its class path is {@code spring-boot-starter-webmvc} without
 * {@code spring-boot-starter-tomcat}, plus {@code weft-spring-boot-starter}: nothing else makes it run on Weft;
 * for WebSocket, {@code spring-boot-starter-websocket} (without Tomcat, too) and {@code weft-websocket-jakarta}.
 */
@SpringBootApplication
public class MvcDemoApplication {

    /** Starts the demo (port 8080 unless {@code --server.port=N}). */
    public static void main(String[] args) {
        SpringApplication.run(MvcDemoApplication.class, args);
    }
}
