package dev.weft.servlet.context;

import dev.weft.servlet.ServletContainer;
import dev.weft.servlet.ServletContainerConfig;
import dev.weft.servlet.ServletContainerException;
import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.ServletServer;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.GenericServlet;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The container's life cycle as Spring Boot drives it: create, start, stop, destroy. */
class ContainerLifecycleTest {

    /** A servlet that records its init and destroy calls and the class loader it was initialized with. */
    static final class Recording extends GenericServlet {
        private final String name;
        private final List<String> events;
        volatile ClassLoader initLoader;

        Recording(String name, List<String> events) {
            this.name = name;
            this.events = events;
        }

        @Override
        public void init(ServletConfig config) throws ServletException {
            super.init(config);
            initLoader = Thread.currentThread().getContextClassLoader();
            events.add("init " + name);
        }

        @Override
        public void service(ServletRequest req, ServletResponse res) throws IOException {
            res.getWriter().print(name);
        }

        @Override
        public void destroy() {
            events.add("destroy " + name);
        }
    }

    @Test
    void loadOnStartupServletsAreInitializedOnlyByStartInAscendingOrder() {
        List<String> events = new CopyOnWriteArrayList<>();
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder()
                .initializer((classes, ctx) -> {
                    ctx.addServlet("late", new Recording("late", events)).setLoadOnStartup(5);
                    ctx.addServlet("lazy", new Recording("lazy", events)).setLoadOnStartup(-1);
                    ctx.addServlet("first", new Recording("first", events)).setLoadOnStartup(0);
                    ctx.addServlet("tie", new Recording("tie", events)).setLoadOnStartup(5);
                })
                .build());
        try {
            assertEquals(List.of(), events, "nothing is initialized by create");
            c.start();
            assertEquals(List.of("init first", "init late", "init tie"), events);
            c.start();
            assertEquals(3, events.size(), "a second start does nothing");
        } finally {
            c.destroy();
        }
        assertTrue(events.containsAll(List.of("destroy first", "destroy late", "destroy tie")));
        assertTrue(!events.contains("destroy lazy"), "a servlet never initialized is not destroyed");
    }

    @Test
    void initializersRunInOrderBeforeContextInitialized() {
        List<String> events = new ArrayList<>();
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder()
                .listener(new ServletContextListener() {
                    @Override
                    public void contextInitialized(ServletContextEvent sce) {
                        events.add("contextInitialized");
                    }
                })
                .initializer((classes, ctx) -> events.add("one"))
                .initializer((classes, ctx) -> events.add("two"))
                .initializer((classes, ctx) -> events.add("three"))
                .build());
        c.destroy();
        assertEquals(List.of("one", "two", "three", "contextInitialized"), events);
    }

    @Test
    void contextDestroyedIsCalledByDestroyNotByStop() throws Exception {
        List<String> events = new CopyOnWriteArrayList<>();
        ServletServer s = ServletServer.start(b -> b
                .listener(new ServletContextListener() {
                    @Override
                    public void contextDestroyed(ServletContextEvent sce) {
                        events.add("contextDestroyed");
                    }
                })
                .initializer((classes, ctx) -> ctx.addServlet("hello", new Recording("hello", events))
                        .addMapping("/hello")));
        try {
            assertEquals(200, Http.get(s.uri("/hello")).statusCode());
            s.container().stop();
            assertEquals(List.of("init hello"), events);
            assertEquals(503, Http.get(s.uri("/hello")).statusCode(), "a stopped container refuses requests");
            s.container().start();
            assertEquals("hello", Http.get(s.uri("/hello")).body(), "it serves again after start");
        } finally {
            s.close();
        }
        assertEquals(List.of("init hello", "destroy hello", "contextDestroyed"), events);
    }

    @Test
    void aFailingFilterInitFailsStartWithTheCause() {
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder()
                .initializer((classes, ctx) -> ctx.addFilter("bad", new Filter() {
                    @Override
                    public void init(FilterConfig config) throws ServletException {
                        throw new ServletException("filter init failed");
                    }

                    @Override
                    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) {
                    }
                }).addMappingForUrlPatterns(null, false, "/*"))
                .build());
        try {
            ServletContainerException e = assertThrows(ServletContainerException.class, c::start);
            assertEquals("filter init failed", e.getCause().getMessage());
        } finally {
            c.destroy();
        }
    }

    @Test
    void aFailingLoadOnStartupServletFailsStartWithTheOriginalExceptionInTheChain() {
        IllegalStateException original = new IllegalStateException("boom");
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder()
                .initializer((classes, ctx) -> ctx.addServlet("bad", new GenericServlet() {
                    @Override
                    public void init() {
                        throw original;
                    }

                    @Override
                    public void service(ServletRequest req, ServletResponse res) {
                    }
                }).setLoadOnStartup(1))
                .build());
        try {
            ServletContainerException e = assertThrows(ServletContainerException.class, c::start);
            Throwable t = e;
            while (t != null && t != original) {
                t = t.getCause();
            }
            assertSame(original, t);
        } finally {
            c.destroy();
        }
    }

    @Test
    void aFailingContextListenerFailsCreate() {
        ServletContainerException e = assertThrows(ServletContainerException.class, () -> ServletContainer.create(
                ServletContainerConfig.builder()
                        .listener(new ServletContextListener() {
                            @Override
                            public void contextInitialized(ServletContextEvent sce) {
                                throw new IllegalStateException("listener failed");
                            }
                        })
                        .build()));
        assertEquals("listener failed", e.getCause().getMessage());
    }

    @Test
    void servletFilterAndListenerSeeTheSameContextClassLoader() {
        ClassLoader loader = new ClassLoader(getClass().getClassLoader()) { };
        List<ClassLoader> seen = new CopyOnWriteArrayList<>();
        Recording servlet = new Recording("s", new ArrayList<>());
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder()
                .classLoader(loader)
                .initializer((classes, ctx) -> {
                    ctx.addListener(new ServletContextListener() {
                        @Override
                        public void contextInitialized(ServletContextEvent sce) {
                            seen.add(Thread.currentThread().getContextClassLoader());
                        }
                    });
                    ctx.addFilter("f", new Filter() {
                        @Override
                        public void init(FilterConfig config) {
                            seen.add(Thread.currentThread().getContextClassLoader());
                        }

                        @Override
                        public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) {
                        }
                    });
                    ctx.addServlet("s", servlet).setLoadOnStartup(1);
                })
                .build());
        try {
            c.start();
            seen.add(servlet.initLoader);
            assertEquals(List.of(loader, loader, loader), seen);
        } finally {
            c.destroy();
        }
    }

    @Test
    void destroyWithoutStartTearsDownAndCanBeRepeated() {
        List<String> events = new ArrayList<>();
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder()
                .listener(new ServletContextListener() {
                    @Override
                    public void contextDestroyed(ServletContextEvent sce) {
                        events.add("destroyed");
                    }
                })
                .build());
        c.destroy();
        c.destroy();
        assertEquals(List.of("destroyed"), events);
        assertThrows(ServletContainerException.class, c::start);
    }

    @Test
    void configurationMethodsAreRefusedOnceInitialized() {
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder().build());
        try {
            ServletContext ctx = c.servletContext();
            assertThrows(IllegalStateException.class, () -> ctx.addServlet("x", new Recording("x", List.of())));
            assertThrows(IllegalStateException.class, () -> ctx.addFilter("f", (Filter) (r, s, ch) -> { }));
            assertThrows(IllegalStateException.class, () -> ctx.setInitParameter("a", "b"));
        } finally {
            c.destroy();
        }
    }

    @Test
    void aProgrammaticContextListenerMayNotConfigureTheContext() {
        List<Throwable> seen = new ArrayList<>();
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder()
                .initializer((classes, ctx) -> ctx.addListener(new ServletContextListener() {
                    @Override
                    public void contextInitialized(ServletContextEvent sce) {
                        try {
                            sce.getServletContext().addServlet("x", new Recording("x", List.of()));
                        } catch (RuntimeException e) {
                            seen.add(e);
                        }
                    }
                }))
                .listener(new ServletContextListener() {
                    @Override
                    public void contextInitialized(ServletContextEvent sce) {
                        assertNotNull(sce.getServletContext().addServlet("declared", new Recording("d", List.of())));
                    }
                })
                .build());
        c.destroy();
        assertEquals(1, seen.size());
        assertInstanceOf(UnsupportedOperationException.class, seen.get(0));
    }

    @Test
    void initParametersAreSetBeforeInitializersRun() {
        List<String> seen = new ArrayList<>();
        ServletContainer c = ServletContainer.create(ServletContainerConfig.builder()
                .initParameter("a", "alpha")
                .initializer((classes, ctx) -> seen.add(ctx.getInitParameter("a")))
                .build());
        c.destroy();
        assertEquals(List.of("alpha"), seen);
    }

    @Test
    void filterRegisteredWithoutDispatcherTypesAppliesToRequests() throws Exception {
        try (ServletServer s = ServletServer.start(b -> b.initializer((classes, ctx) -> {
            ctx.addServlet("hello", new Recording("Hello World", new ArrayList<>())).addMapping("/hello");
            ctx.addFilter("brackets", (Filter) (req, res, chain) -> {
                res.getWriter().print("[");
                chain.doFilter(req, res);
                res.getWriter().print("]");
            }).addMappingForUrlPatterns(EnumSet.noneOf(jakarta.servlet.DispatcherType.class), true, "/*");
        }))) {
            assertEquals("[Hello World]", Http.get(s.uri("/hello")).body());
        }
    }
}
