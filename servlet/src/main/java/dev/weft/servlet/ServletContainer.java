package dev.weft.servlet;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.weft.servlet.context.ContextLifecycle;
import dev.weft.servlet.context.ContextPhase;
import dev.weft.servlet.context.ContextSettings;
import dev.weft.servlet.context.HandlesTypesScanner;
import dev.weft.servlet.context.InitializerSpec;
import dev.weft.servlet.context.WeftServletContext;
import dev.weft.servlet.dispatch.ErrorPageEntry;
import dev.weft.servlet.dispatch.ServletHandler;
import dev.weft.servlet.resource.DefaultServlet;
import dev.weft.servlet.resource.MimeTable;
import dev.weft.servlet.response.CompressionRule;
import dev.weft.servlet.session.SessionSettings;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.SessionCookieConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * An embedded Servlet 6.1 container running one web application on a Weft server.
 *
 * <p>Life cycle, in the order Spring Boot's servlet web server drives it:
 * <ol>
 * <li>{@link #create}: the servlet context is built and configured — listeners, the default servlet, every
 *     {@code ServletContainerInitializer}, then {@code contextInitialized}; no filter or servlet is initialized,
 *     and no request is served;</li>
 * <li>{@link #start}: filters and load-on-startup servlets are initialized (in load-on-startup order), persisted
 *     sessions are read back, and requests are served; calling it again does nothing;</li>
 * <li>{@link #stop}: requests are refused with 503 until the next {@code start} (servlets stay initialized);</li>
 * <li>{@link #destroy}: servlets and filters are destroyed, sessions saved (with a store directory) or
 *     invalidated, {@code contextDestroyed} called; the container cannot start again.</li>
 * </ol>
 * Requests reach the container through {@link #handler()}, mounted on the server's root context (see
 * {@link #mount}); the container applies its own context path. The lifecycle methods are meant to be called from
 * one thread; requests run on the engine's virtual threads.
 */
public final class ServletContainer {

    private final ServletContainerConfig config;
    private final WeftServletContext context;
    private final ContextLifecycle lifecycle;
    private final ServletHandler handler;
    private final Path tempDir;
    private final boolean ownTempDir;

    private ServletContainer(ServletContainerConfig config, WeftServletContext context, ContextLifecycle lifecycle,
                             ServletHandler handler, Path tempDir, boolean ownTempDir) {
        this.config = config;
        this.context = context;
        this.lifecycle = lifecycle;
        this.handler = handler;
        this.tempDir = tempDir;
        this.ownTempDir = ownTempDir;
    }

    /**
     * Builds the servlet context and runs its initializers and {@code contextInitialized}.
     *
     * @throws ServletContainerException if an initializer or a listener failed (the container is torn down)
     */
    public static ServletContainer create(ServletContainerConfig config) {
        boolean ownTempDir = config.tempDir() == null;
        Path tempDir;
        Path documentRoot;
        try {
            tempDir = ownTempDir ? Files.createTempDirectory("weft-servlet-") : Files.createDirectories(config.tempDir());
            documentRoot = config.documentRoot() != null ? config.documentRoot()
                    : Files.createDirectories(tempDir.resolve("document-root"));
        } catch (IOException e) {
            throw new ServletContainerException("cannot create the container's temporary directory", e);
        }
        WeftServletContext context = new WeftServletContext(settings(config), documentRoot, tempDir);
        applySessionCookie(config.session(), context.getSessionCookieConfig());
        ContextLifecycle lifecycle = new ContextLifecycle(context);
        List<ErrorPageEntry> pages = new ArrayList<>();
        for (ErrorPage p : config.errorPages()) {
            pages.add(new ErrorPageEntry(p.status(), p.exceptionType(), p.location()));
        }
        ServletHandler handler = new ServletHandler(context, pages, config.showStackTraces());
        ServletContainer container = new ServletContainer(config, context, lifecycle, handler, tempDir, ownTempDir);
        try {
            DefaultServlet defaultServlet = config.registerDefaultServlet()
                    ? new DefaultServlet(context.resources(), config.welcomeFiles()) : null;
            lifecycle.initialize(config.listeners(), defaultServlet, initializers(config));
        } catch (Exception e) {
            container.destroy();
            throw new ServletContainerException("initializing the servlet context failed", e);
        }
        return container;
    }

    private static ContextSettings settings(ServletContainerConfig c) {
        SessionConfig s = c.session();
        SessionSettings session = new SessionSettings((int) s.timeout().toSeconds(), s.trackingModes(),
                s.maxSessions(), s.sweepInterval(), s.storeDir());
        Map<String, String> mime = c.mimeMappings() != null ? c.mimeMappings() : MimeTable.defaults();
        return new ContextSettings(c.contextPath(), c.displayName(), c.initParameters(), mime, c.localeCharsets(),
                name(c.requestCharacterEncoding()), name(c.responseCharacterEncoding()), c.classLoader(),
                c.documentRoot(), c.staticResourceLocations(), c.tempDir(), c.registerDefaultServlet(),
                c.welcomeFiles(), session, c.responseBufferSize(), c.asyncTimeout().toMillis(), c.formLimits(),
                c.cookieSameSite(), compression(c.compression()), c.serverInfo(), "weft");
    }

    private static CompressionRule compression(ResponseCompression c) {
        return c == null ? null : new CompressionRule(c.mimeTypes(), c.minResponseSize(), c.excludedUserAgents());
    }

    private static String name(Charset charset) {
        return charset == null ? null : charset.name();
    }

    private static void applySessionCookie(SessionConfig session, SessionCookieConfig cookie) {
        cookie.setName(session.cookieName());
        cookie.setHttpOnly(false);
        session.cookieAttributes().forEach(cookie::setAttribute);
    }

    private static List<InitializerSpec> initializers(ServletContainerConfig config) {
        HandlesTypesScanner scanner = new HandlesTypesScanner(config.classLoader(), config.scanPackages());
        List<InitializerSpec> specs = new ArrayList<>();
        for (ServletContainerConfig.Initializer i : config.initializers()) {
            specs.add(new InitializerSpec(i.initializer(),
                    i.classes() != null ? (i.classes().isEmpty() ? null : i.classes()) : scanner.classesFor(i.initializer())));
        }
        if (config.discoverInitializers()) {
            for (ServletContainerInitializer sci : ServiceLoader.load(ServletContainerInitializer.class,
                    config.classLoader())) {
                specs.add(new InitializerSpec(sci, scanner.classesFor(sci)));
            }
        }
        return specs;
    }

    /**
     * Initializes filters and load-on-startup servlets (the first time) and serves requests.
     *
     * @throws ServletContainerException if a filter's or a servlet's {@code init} failed
     */
    public void start() {
        try {
            lifecycle.start();
        } catch (Exception e) {
            throw new ServletContainerException("starting the servlet context failed", e);
        }
    }

    /** Refuses requests (503) until the next {@link #start()}; servlets and sessions are kept. */
    public void stop() {
        lifecycle.stop();
    }

    /**
     * Tears the application down for good: servlets and filters destroyed, sessions saved or invalidated,
     * {@code contextDestroyed} called, the temporary directory deleted (when the container created it).
     */
    public void destroy() {
        try {
            lifecycle.destroy();
        } finally {
            if (ownTempDir) {
                deleteTree(tempDir);
            }
        }
    }

    /** Whether the container serves requests now. */
    public boolean isStarted() {
        return context.phase() == ContextPhase.STARTED;
    }

    /** The handler to mount on the engine server's root context ({@code "/"}). */
    public HttpHandler handler() {
        return handler;
    }

    /** Mounts {@link #handler()} on {@code server}'s root context, HTTP or HTTPS alike. */
    public HttpContext mount(HttpServer server) {
        return server.createContext("/", handler);
    }

    /** The web application's servlet context. */
    public ServletContext servletContext() {
        return context;
    }

    /** The context path ({@code ""} for the root). */
    public String contextPath() {
        return config.contextPath();
    }

    /** The MIME table in effect, exactly. */
    public Map<String, String> mimeMappings() {
        return context.mimeTable().asMap();
    }

    /** The charset {@code setLocale(locale)} gives a response, or null when none is mapped. */
    public Charset charsetFor(Locale locale) {
        return context.charsetFor(locale);
    }

    /** Number of live sessions. */
    public int sessionCount() {
        return context.sessions().size();
    }

    /** The configuration the container was created with. */
    public ServletContainerConfig config() {
        return config;
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the container's temporary directory " + root, e);
        }
    }
}
