package dev.weft.spring.boot.servlet;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.spring.boot.Curl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.Http2;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.servlet.ServletContextInitializer;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot's servlet factory contract on Weft: h2c and HTTP/1.1 on one port, the server header, the
 * engine's own settings, and what happens when Spring Boot asks for a JSP servlet.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftServletWebServerHttpTest {

    private final ServletServers servers = new ServletServers();

    @AfterEach
    void destroyServers() {
        servers.close();
    }

    @Test
    void withHttp2EnabledAndNoTlsH2cWithPriorKnowledgeAndHttp11ShareThePort() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        Http2 http2 = new Http2();
        http2.setEnabled(true);
        factory.setHttp2(http2);
        WebServer server = servers.start(factory, ServletServers.hello());
        String url = ServletServers.uri(server, "/hello").toString();

        Curl.Result h2c = Curl.run("--http2-prior-knowledge", "-w", "\n%{http_version} %{http_code}", url);
        Curl.Result http11 = Curl.run("--http1.1", "-w", "\n%{http_version} %{http_code}", url);

        assertThat(h2c.text()).isEqualTo("Hello World\n2 200");
        assertThat(http11.text()).isEqualTo("Hello World\n1.1 200");
    }

    @Test
    void withoutHttp2OnlyHttp11IsSpoken() throws Exception {
        WebServer server = servers.start(ServletServers.factory(), ServletServers.hello());

        Curl.Result h2c = Curl.run("--http2-prior-knowledge", ServletServers.uri(server, "/hello").toString());

        assertThat(h2c.exitCode()).isNotZero();
    }

    @Test
    void thereIsNoServerHeaderUnlessOneIsSet() throws Exception {
        WebServer plain = servers.start(ServletServers.factory(), ServletServers.hello());
        WeftServletWebServerFactory named = ServletServers.factory();
        named.setServerHeader("MyServer");
        WebServer custom = servers.start(named, ServletServers.hello());

        assertThat(servers.get(plain, "/hello").headers().firstValue("Server")).isEmpty();
        assertThat(servers.get(custom, "/hello").headers().firstValue("Server")).hasValue("MyServer");
    }

    @Test
    void engineSettingsAndCustomizersReachTheEngine() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setMaxHeaderSize(1024);
        factory.setIdleTimeout(Duration.ofSeconds(7));
        factory.addServerCustomizers(builder -> builder.maxHeaderCount(20));
        WebServer server = servers.start(factory, ServletServers.hello());

        ServerConfig config = ((WeftServletWebServer) server).getServerConfig();
        assertThat(config.maxHeaderSize()).isEqualTo(1024);
        assertThat(config.idleTimeout()).isEqualTo(Duration.ofSeconds(7));
        assertThat(config.maxHeaderCount()).isEqualTo(20);
        HttpResponse<String> tooLarge = servers.send(server, HttpRequest.newBuilder(ServletServers.uri(server, "/hello")).header("X-Big", "x".repeat(2000)));
        assertThat(tooLarge.statusCode()).isEqualTo(431);
    }

    @Test
    void noJspServletIsRegisteredAndAskingForOneWithJasperPresentSaysSoOnce(CapturedOutput output) {
        WeftServletWebServerFactory factory = ServletServers.factory();
        // Jasper is not on the test class path: a class that is stands in for org.apache.jasper.servlet.JspServlet.
        factory.getSettings().getJsp().setClassName(WeftServletWebServerHttpTest.class.getName());
        AtomicReference<Object> jsp = new AtomicReference<>("unset");
        ServletContextInitializer probe = context -> jsp.set(context.getServletRegistration("jsp"));

        servers.create(factory, probe);

        assertThat(jsp.get()).isNull();
        assertThat(output).containsOnlyOnce("JSP is not supported by Weft");
    }

    @Test
    void withJspRegistrationOffNothingIsSaid(CapturedOutput output) {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.getSettings().getJsp().setClassName(WeftServletWebServerHttpTest.class.getName());
        factory.getSettings().getJsp().setRegistered(false);

        servers.create(factory);

        assertThat(output).doesNotContain("JSP is not supported");
    }
}
