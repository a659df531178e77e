package dev.weft.spring.boot.servlet.websocket;

import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * {@link WebSocketTestApplication} on a random port with two users ({@value #ALICE} and {@value #BOB}, password
 * {@value #PASSWORD}) and Weft's WebSocket message size limit at {@value #MAX_MESSAGE_SIZE} bytes, as the test classes that share it expect (one application context for all of them).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = {WebSocketTestApplication.class, TestUsers.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "weft.server.websocket.max-message-size=" + OnWeftWithWebSocket.MAX_MESSAGE_SIZE)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@interface OnWeftWithWebSocket {

    /** One user. */
    String ALICE = "alice";
    /** Another user. */
    String BOB = "bob";
    /** Their password. */
    String PASSWORD = "secret";
    /** {@code weft.server.websocket.max-message-size}: below the container's binary buffer size. */
    int MAX_MESSAGE_SIZE = 20 * 1024;
}
