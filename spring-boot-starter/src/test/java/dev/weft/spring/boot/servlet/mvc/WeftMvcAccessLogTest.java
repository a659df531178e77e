package dev.weft.spring.boot.servlet.mvc;

import dev.weft.spring.boot.AccessLogProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** A Spring MVC application on Weft with {@code weft.server.access-log.*} writes the combined log to its file. */
@SpringBootTest(classes = MvcTestApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
        "weft.server.access-log.enabled=true",
        "weft.server.access-log.flush-interval=50ms" })
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftMvcAccessLogTest {

    private static final AccessLogProbe LOG = AccessLogProbe.inTempDirectory("weft-mvc-access-log");

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void file(DynamicPropertyRegistry registry) {
        registry.add("weft.server.access-log.file", LOG::file);
    }

    @Test
    void accessLogPropertiesWriteEachExchangeToTheFile() throws Exception {
        LOG.requestAndAwaitLine(port, "weft-mvc-test");
    }
}
