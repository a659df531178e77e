package dev.weft.spring.boot;

import dev.weft.httpserver.config.Listener;
import dev.weft.spring.boot.reactive.WeftHttpHandlerAdapter;
import dev.weft.spring.boot.servlet.WeftServletWebServerFactory;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.HttpHandler;
import reactor.core.publisher.Mono;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;

import static dev.weft.spring.boot.AdditionalListeners.get;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code addAdditionalListeners} of both factories: one application on several ports, bound all or none, with
 * Boot's start line naming every port. Each server answers with the scheme and local port of the request.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftAdditionalListenersTest {

    private static final String LOGGER = "dev.weft.spring.boot.WeftWebServer";

    /** The two factories, each making a server that answers {@code <scheme> <local port>}. */
    enum Kind {
        REACTIVE, SERVLET;

        ConfigurableWeftWebServerFactory factory(int port) {
            return this == REACTIVE ? new WeftReactiveWebServerFactory(port) : new WeftServletWebServerFactory(port);
        }

        WebServer server(ConfigurableWeftWebServerFactory factory) {
            if (factory instanceof WeftReactiveWebServerFactory reactive) {
                HttpHandler handler = (request, response) -> {
                    byte[] body = (request.getURI().getScheme() + " " + request.getLocalAddress().getPort())
                            .getBytes(StandardCharsets.UTF_8);
                    DataBuffer buffer = response.bufferFactory().wrap(body);
                    return response.writeWith(Mono.just(buffer));
                };
                return reactive.getWebServer(handler);
            }
            HttpServlet servlet = new HttpServlet() {
                @Override
                protected void service(HttpServletRequest req, HttpServletResponse resp) throws IOException {
                    resp.getWriter().print(req.getScheme() + " " + req.getLocalPort());
                }
            };
            return ((WeftServletWebServerFactory) factory).getWebServer(new ServletRegistrationBean<>(servlet, "/"));
        }
    }

    private WebServer webServer;

    @BeforeAll
    static void logStartLines() {
        LoggingSystem.get(WeftAdditionalListenersTest.class.getClassLoader()).setLogLevel(LOGGER, LogLevel.INFO);
    }

    @AfterAll
    static void quietAgain() {
        LoggingSystem.get(WeftAdditionalListenersTest.class.getClassLoader()).setLogLevel(LOGGER, null);
    }

    @AfterEach
    void destroy() {
        if (webServer != null) {
            webServer.destroy();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anHttpsListenerBesideThePortServesTheSameApplicationAndTheStartLineNamesBothPorts(Kind kind,
            CapturedOutput output) throws Exception {
        ConfigurableWeftWebServerFactory factory = kind.factory(0);
        factory.addAdditionalListeners(AdditionalListeners.httpsOnAnyPort());
        webServer = kind.server(factory);
        webServer.start();

        int http = webServer.getPort();
        int https = ((WeftWebServer) webServer).getPorts().get(1);
        assertThat(((WeftWebServer) webServer).getPorts()).containsExactly(http, https);
        assertThat(get("http://localhost:" + http + "/")).isEqualTo("http " + http);
        assertThat(get("https://localhost:" + https + "/")).isEqualTo("https " + https);
        assertThat(output).contains("Weft started on ports " + http + " (http), " + https + " (https)"
                + (kind == Kind.SERVLET ? " with context path '/'" : "\n"));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aTakenAdditionalPortFailsStartWithPortInUseExceptionAndFreesTheFirst(Kind kind) throws Exception {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        int first;
        try (ServerSocket probe = new ServerSocket(0, 1, loopback)) {
            first = probe.getLocalPort();
        }
        try (ServerSocket taken = new ServerSocket(0, 1, loopback)) {
            ConfigurableWeftWebServerFactory factory = kind.factory(first);
            factory.setAddress(loopback);
            factory.addAdditionalListeners(Listener.http(new InetSocketAddress(loopback, taken.getLocalPort())));
            webServer = kind.server(factory);

            assertThatThrownBy(webServer::start).isInstanceOfSatisfying(PortInUseException.class,
                    e -> assertThat(e.getPort()).isEqualTo(taken.getLocalPort()));
            assertThat(webServer.getPort()).isEqualTo(-1);
        }
        try (ServerSocket again = new ServerSocket(first, 1, loopback)) {
            assertThat(again.getLocalPort()).as("the first port is free again").isEqualTo(first);
        }
    }
}
