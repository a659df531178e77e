package dev.weft.spring.boot.servlet;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.PortInUseException;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.WebServerException;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.boot.web.servlet.ServletListenerRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Spring Boot's servlet factory contract on Weft: life cycle and ports, the start log line, context paths,
 * initializer order, and failures while the application starts.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class WeftServletWebServerLifecycleTest {

    private static final String LOGGER = "dev.weft.spring.boot.WeftWebServer";

    private final ServletServers servers = new ServletServers();

    @BeforeAll
    static void logStartLines() {
        LoggingSystem.get(WeftServletWebServerLifecycleTest.class.getClassLoader()).setLogLevel(LOGGER, LogLevel.INFO);
    }

    @AfterAll
    static void quietAgain() {
        LoggingSystem.get(WeftServletWebServerLifecycleTest.class.getClassLoader()).setLogLevel(LOGGER, null);
    }

    @AfterEach
    void destroyServers() {
        servers.close();
    }

    @Test
    void aRegisteredServletAnswersOnceStarted() throws Exception {
        WebServer server = servers.start(ServletServers.factory(), ServletServers.hello());

        assertThat(servers.get(server, "/hello").body()).isEqualTo("Hello World");
    }

    @Test
    void loadOnStartupServletsAreInitializedByStartNotByGetWebServer() throws Exception {
        AtomicInteger inits = new AtomicInteger();
        ServletRegistrationBean<HttpServlet> registration = new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            public void init() {
                inits.incrementAndGet();
            }
        }, "/init");
        registration.setLoadOnStartup(1);
        WebServer server = servers.create(ServletServers.factory(), registration);
        assertThat(inits).hasValue(0);

        server.start();

        assertThat(inits).hasValue(1);
        server.stop();
        server.start();
        assertThat(inits).as("initialized once only").hasValue(1);
    }

    @Test
    void startReturnsOnlyWhenTheApplicationServes() throws Exception {
        AtomicInteger inits = new AtomicInteger();
        ServletRegistrationBean<HttpServlet> slow = new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            public void init() {
                inits.incrementAndGet();
            }
        }, "/slow");
        slow.setLoadOnStartup(1);
        WebServer server = servers.start(ServletServers.factory(), ServletServers.hello(), slow);

        assertThat(inits).hasValue(1);
        assertThat(server.getPort()).isPositive();
        assertThat(servers.get(server, "/hello").statusCode()).isEqualTo(200);
    }

    @Test
    void startCalledTwiceKeepsThePortAndLogsOnce(CapturedOutput output) throws Exception {
        WebServer server = servers.start(ServletServers.factory(), ServletServers.hello());
        int port = server.getPort();

        server.start();

        assertThat(server.getPort()).isEqualTo(port);
        assertThat(servers.get(server, "/hello").body()).isEqualTo("Hello World");
        assertThat(count(output.toString(), "Weft started on port " + port)).isEqualTo(1);
    }

    @Test
    void stopCalledTwiceIsHarmless() {
        WebServer server = servers.start(ServletServers.factory(), ServletServers.hello());

        server.stop();
        server.stop();

        assertThat(server.getPort()).isEqualTo(-1);
    }

    @Test
    void afterStopTheOldPortRefusesConnections() {
        WebServer server = servers.start(ServletServers.factory(), ServletServers.hello());
        int port = server.getPort();

        server.stop();

        assertThatExceptionOfType(ConnectException.class)
                .isThrownBy(() -> new Socket("127.0.0.1", port).close());
    }

    @Test
    void aStoppedServerStartsAgainAndServes() throws Exception {
        WebServer server = servers.start(ServletServers.factory(), ServletServers.hello());
        server.stop();

        server.start();

        assertThat(servers.get(server, "/hello").body()).isEqualTo("Hello World");
    }

    @Test
    void portZeroBindsAFreePortAndReportsIt() throws Exception {
        WebServer server = servers.start(ServletServers.factory(), ServletServers.hello());

        assertThat(server.getPort()).isPositive();
        try (Socket socket = new Socket("127.0.0.1", server.getPort())) {
            assertThat(socket.isConnected()).isTrue();
        }
    }

    @Test
    void portMinusOneStartsTheApplicationWithoutListening() {
        AtomicInteger inits = new AtomicInteger();
        ServletRegistrationBean<HttpServlet> registration = new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            public void init() {
                inits.incrementAndGet();
            }
        }, "/init");
        registration.setLoadOnStartup(1);
        WebServer server = servers.start(new WeftServletWebServerFactory(-1), registration);

        assertThat(server.getPort()).isEqualTo(-1);
        assertThat(inits).hasValue(1);
    }

    @Test
    void portIsMinusOneAfterDestroy() {
        WebServer server = servers.start(ServletServers.factory(), ServletServers.hello());
        assertThat(server.getPort()).isPositive();

        server.destroy();

        assertThat(server.getPort()).isEqualTo(-1);
    }

    @Test
    void aTakenPortFailsWithPortInUseExceptionNamingIt() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(0));
            WeftServletWebServerFactory factory = new WeftServletWebServerFactory(taken.getLocalPort());
            WebServer server = servers.create(factory, ServletServers.hello());

            assertThatExceptionOfType(PortInUseException.class).isThrownBy(server::start)
                    .satisfies(ex -> assertThat(ex.getPort()).isEqualTo(taken.getLocalPort()));
        }
    }

    @Test
    void anAddressThatIsNotLocalFailsButNotAsPortInUse() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setAddress(InetAddress.getByAddress(new byte[] { (byte) 129, (byte) 129, (byte) 129, (byte) 129 }));
        WebServer server = servers.create(factory, ServletServers.hello());

        assertThatThrownBy(server::start).isInstanceOf(RuntimeException.class)
                .isNotInstanceOf(PortInUseException.class);
    }

    @Test
    void startLogsThePortProtocolAndRootContextPath(CapturedOutput output) {
        WebServer server = servers.start(ServletServers.factory(), ServletServers.hello());

        assertThat(output).contains("Weft started on port " + server.getPort() + " (http) with context path '/'");
    }

    @Test
    void startLogsTheContextPathOnce(CapturedOutput output) {
        WebServer server = servers.start(new WeftServletWebServerFactory("/custom", 0), ServletServers.hello());

        assertThat(count(output.toString(), "Weft started on port " + server.getPort()
                + " (http) with context path '/custom'")).isEqualTo(1);
    }

    @Test
    void aServletAnswersUnderTheContextPath() throws Exception {
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setContextPath("/say");
        WebServer server = servers.start(factory, ServletServers.hello());

        assertThat(servers.get(server, "/say/hello").body()).isEqualTo("Hello World");
        assertThat(servers.get(server, "/hello").statusCode()).isEqualTo(404);
    }

    @Test
    void contextPathsAreValidatedAsSpringBootSays() {
        WeftServletWebServerFactory factory = ServletServers.factory();

        assertThatIllegalArgumentException().isThrownBy(() -> factory.setContextPath("missingslash"))
                .withMessageContaining("Context path must start with '/' and not end with '/'");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.setContextPath("extraslash/"))
                .withMessageContaining("Context path must start with '/' and not end with '/'");
        assertThatIllegalArgumentException().isThrownBy(() -> factory.setContextPath("/"))
                .withMessageContaining("Root context path must be specified using an empty string");
    }

    @Test
    void initializersRunOnceInOrderGetWebServerThenSetThenAdded() {
        List<String> order = new ArrayList<>();
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setInitializers(List.of(context -> order.add("set1"), context -> order.add("set2")));
        factory.addInitializers(context -> order.add("added"));

        servers.create(factory, context -> order.add("given1"), context -> order.add("given2"));

        assertThat(order).containsExactly("given1", "given2", "set1", "set2", "added");
    }

    @Test
    void contextInitParametersAreSetBeforeAnyInitializerRuns() {
        List<String> seen = new ArrayList<>();
        WeftServletWebServerFactory factory = ServletServers.factory();
        factory.setInitParameters(Map.of("a", "alpha"));

        servers.create(factory, context -> seen.add(context.getInitParameter("a")));

        assertThat(seen).containsExactly("alpha");
    }

    @Test
    void aFilterWithoutMappingWrapsEveryRequest() throws Exception {
        FilterRegistrationBean<Filter> brackets = new FilterRegistrationBean<>(
                (ServletRequest req, ServletResponse resp, FilterChain chain) -> {
                    resp.getWriter().print("[");
                    chain.doFilter(req, resp);
                    resp.getWriter().print("]");
                });
        WebServer server = servers.start(ServletServers.factory(), ServletServers.hello(), brackets);

        assertThat(servers.get(server, "/hello").body()).isEqualTo("[Hello World]");
    }

    @Test
    void aFilterFailingInitFailsStartWithWebServerException() {
        FilterRegistrationBean<Filter> faulty = new FilterRegistrationBean<>(new Filter() {
            @Override
            public void init(FilterConfig config) throws ServletException {
                throw new ServletException("Faulty filter");
            }

            @Override
            public void doFilter(ServletRequest req, ServletResponse resp, FilterChain chain) {
            }
        });
        WebServer server = servers.create(ServletServers.factory(), ServletServers.hello(), faulty);

        assertThatExceptionOfType(WebServerException.class).isThrownBy(server::start);
    }

    @Test
    void aLoadOnStartupServletFailingInitFailsStartWithTheOriginalCause() {
        RuntimeException failure = new IllegalStateException("init failed");
        ServletRegistrationBean<HttpServlet> registration = new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            public void init() {
                throw failure;
            }
        }, "/failing");
        registration.setLoadOnStartup(1);
        WebServer server = servers.create(ServletServers.factory(), registration);

        assertThatExceptionOfType(WebServerException.class).isThrownBy(server::start)
                .satisfies(ex -> assertThat(causes(ex)).contains(failure));
    }

    @Test
    void aFailingContextListenerFailsGetWebServer() {
        RuntimeException failure = new IllegalStateException("listener failed");
        ServletListenerRegistrationBean<ServletContextListener> listener = new ServletListenerRegistrationBean<>(
                new ServletContextListener() {
                    @Override
                    public void contextInitialized(ServletContextEvent event) {
                        throw failure;
                    }
                });

        assertThatExceptionOfType(WebServerException.class)
                .isThrownBy(() -> servers.create(ServletServers.factory(), listener))
                .satisfies(ex -> assertThat(causes(ex)).contains(failure));
    }

    @Test
    void stopDoesNotDestroyTheContextButDestroyDoes() {
        AtomicInteger destroyed = new AtomicInteger();
        ServletListenerRegistrationBean<ServletContextListener> listener = new ServletListenerRegistrationBean<>(
                new ServletContextListener() {
                    @Override
                    public void contextDestroyed(ServletContextEvent event) {
                        destroyed.incrementAndGet();
                    }
                });
        WebServer server = servers.start(ServletServers.factory(), listener);

        server.stop();
        assertThat(destroyed).hasValue(0);

        server.destroy();
        assertThat(destroyed).hasValue(1);
        server.destroy();
        assertThat(destroyed).as("destroyed once").hasValue(1);
    }

    @Test
    void destroyWithoutStartTearsTheApplicationDown() {
        AtomicInteger destroyed = new AtomicInteger();
        ServletListenerRegistrationBean<ServletContextListener> listener = new ServletListenerRegistrationBean<>(
                new ServletContextListener() {
                    @Override
                    public void contextDestroyed(ServletContextEvent event) {
                        destroyed.incrementAndGet();
                    }
                });
        WebServer server = servers.create(ServletServers.factory(), listener);

        server.destroy();

        assertThat(destroyed).hasValue(1);
        assertThat(server.getPort()).isEqualTo(-1);
        assertThatExceptionOfType(WebServerException.class).isThrownBy(server::start);
    }

    @Test
    void servletsFiltersAndListenersInitializeWithTheSameContextClassLoader() {
        List<ClassLoader> loaders = new ArrayList<>();
        ServletRegistrationBean<HttpServlet> servlet = new ServletRegistrationBean<>(new HttpServlet() {
            @Override
            public void init() {
                loaders.add(Thread.currentThread().getContextClassLoader());
            }
        }, "/s");
        servlet.setLoadOnStartup(1);
        FilterRegistrationBean<Filter> filter = new FilterRegistrationBean<>(new Filter() {
            @Override
            public void init(FilterConfig config) {
                loaders.add(Thread.currentThread().getContextClassLoader());
            }

            @Override
            public void doFilter(ServletRequest req, ServletResponse resp, FilterChain chain)
                    throws IOException, ServletException {
                chain.doFilter(req, resp);
            }
        });
        ServletListenerRegistrationBean<ServletContextListener> listener = new ServletListenerRegistrationBean<>(
                new ServletContextListener() {
                    @Override
                    public void contextInitialized(ServletContextEvent event) {
                        loaders.add(Thread.currentThread().getContextClassLoader());
                    }
                });

        servers.start(ServletServers.factory(), servlet, filter, listener);

        assertThat(loaders).hasSize(3).doesNotContainNull();
        assertThat(loaders.stream().distinct()).hasSize(1);
    }

    private static int count(String text, String line) {
        Matcher m = Pattern.compile(Pattern.quote(line)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static List<Throwable> causes(Throwable ex) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = ex; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }
}
