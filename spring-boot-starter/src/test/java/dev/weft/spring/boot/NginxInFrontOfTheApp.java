package dev.weft.spring.boot;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Base of the tests of a Spring Boot application on a random port behind a {@link ForwardingNginx}, started
 * once for the test class.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
public abstract class NginxInFrontOfTheApp {

    /** The application's port. */
    @LocalServerPort
    protected int weftPort;

    /** nginx in front of it. */
    protected ForwardingNginx nginx;

    @BeforeAll
    protected void startNginx() throws Exception {
        nginx = ForwardingNginx.start(weftPort);
    }

    @AfterAll
    protected void stopNginx() throws Exception {
        if (nginx != null) {
            nginx.close();
        }
    }
}
