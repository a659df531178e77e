package dev.weft.spring.boot.servlet.mvc;

import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * {@link MvcTestApplication} on a random port, configured as the test classes that share it expect (one
 * application context for all of them): a user from properties, small multipart limits, h2c, Actuator's
 * health and metrics endpoints, a context parameter, the access log in {@value #ACCESS_LOG}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = MvcTestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
                "spring.security.user.name=user",
                "spring.security.user.password=secret",
                "spring.servlet.multipart.max-file-size=1KB",
                "spring.servlet.multipart.max-request-size=2KB",
                "server.http2.enabled=true",
                "server.servlet.context-parameters.greeting=hi",
                "server.servlet.session.timeout=90s",
                "management.endpoints.web.exposure.include=health,metrics",
                "weft.server.access-log.enabled=true",
                "weft.server.access-log.file=" + OnWeft.ACCESS_LOG,
                "weft.server.access-log.flush-interval=50ms" })
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
@interface OnWeft {

    /** The access log file, relative to the module's directory. */
    String ACCESS_LOG = "target/weft-mvc-access-log/access.log";
}
