package dev.weft.spring.boot.servlet.mvc;

import dev.weft.spring.boot.AccessLogProbe;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** A Spring MVC application on Weft with {@code weft.server.access-log.*} writes the combined log to its file. */
@OnWeft
class WeftMvcAccessLogTest {

    @LocalServerPort
    int port;

    @Test
    void accessLogPropertiesWriteEachExchangeToTheFile() throws Exception {
        AccessLogProbe.at(OnWeft.ACCESS_LOG).requestAndAwaitLine(port, "weft-mvc-test");
    }
}
