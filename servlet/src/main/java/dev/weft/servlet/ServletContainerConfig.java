package dev.weft.servlet;

import dev.weft.httpserver.forms.FormLimits;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.http.Cookie;

import java.net.URL;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EventListener;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Everything a {@link ServletContainer} is created with: the context (path, name, init parameters, class
 * loader), what configures it (initializers with their classes, listeners), static resources, MIME and charset
 * tables, sessions, error pages, encodings and limits. Immutable and validated; build one with
 * {@link #builder()}. The same configuration can create a container again (e.g. after a destroy, with sessions
 * read back from {@link SessionConfig#storeDir()}).
 */
public final class ServletContainerConfig {

    /** An initializer and the classes it is called with (null: none, or found by {@code @HandlesTypes} scanning). */
    public record Initializer(ServletContainerInitializer initializer, Set<Class<?>> classes) {

        /** Requires the initializer; copies the classes. */
        public Initializer {
            Objects.requireNonNull(initializer, "initializer");
            classes = classes == null ? null : Set.copyOf(classes);
        }
    }

    private final String contextPath;
    private final String displayName;
    private final Map<String, String> initParameters;
    private final List<Initializer> initializers;
    private final boolean discoverInitializers;
    private final List<String> scanPackages;
    private final List<EventListener> listeners;
    private final Map<String, String> mimeMappings;
    private final Map<Locale, Charset> localeCharsets;
    private final Charset requestCharacterEncoding;
    private final Charset responseCharacterEncoding;
    private final ClassLoader classLoader;
    private final Path documentRoot;
    private final List<URL> staticResourceLocations;
    private final boolean registerDefaultServlet;
    private final List<String> welcomeFiles;
    private final SessionConfig session;
    private final List<ErrorPage> errorPages;
    private final Path tempDir;
    private final int responseBufferSize;
    private final Duration asyncTimeout;
    private final FormLimits formLimits;
    private final Function<Cookie, String> cookieSameSite;
    private final ResponseCompression compression;
    private final boolean showStackTraces;
    private final String serverInfo;

    private ServletContainerConfig(Builder b) {
        this.contextPath = b.contextPath;
        this.displayName = b.displayName;
        this.initParameters = Map.copyOf(b.initParameters);
        this.initializers = List.copyOf(b.initializers);
        this.discoverInitializers = b.discoverInitializers;
        this.scanPackages = List.copyOf(b.scanPackages);
        this.listeners = List.copyOf(b.listeners);
        this.mimeMappings = b.mimeMappings == null ? null : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(b.mimeMappings));
        this.localeCharsets = Map.copyOf(b.localeCharsets);
        this.requestCharacterEncoding = b.requestCharacterEncoding;
        this.responseCharacterEncoding = b.responseCharacterEncoding;
        this.classLoader = b.classLoader != null ? b.classLoader : defaultClassLoader();
        this.documentRoot = b.documentRoot;
        this.staticResourceLocations = List.copyOf(b.staticResourceLocations);
        this.registerDefaultServlet = b.registerDefaultServlet;
        this.welcomeFiles = List.copyOf(b.welcomeFiles);
        this.session = b.session;
        this.errorPages = List.copyOf(b.errorPages);
        this.tempDir = b.tempDir;
        this.responseBufferSize = b.responseBufferSize;
        this.asyncTimeout = b.asyncTimeout;
        this.formLimits = b.formLimits;
        this.cookieSameSite = b.cookieSameSite;
        this.compression = b.compression;
        this.showStackTraces = b.showStackTraces;
        this.serverInfo = b.serverInfo;
    }

    private static ClassLoader defaultClassLoader() {
        ClassLoader tccl = Thread.currentThread().getContextClassLoader();
        return tccl != null ? tccl : ServletContainerConfig.class.getClassLoader();
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** {@code ""} (root) or {@code /name}. */
    public String contextPath() {
        return contextPath;
    }

    /** The display name, or null. */
    public String displayName() {
        return displayName;
    }

    /** Context init parameters (set before any initializer runs). */
    public Map<String, String> initParameters() {
        return initParameters;
    }

    /** The initializers, run in order. */
    public List<Initializer> initializers() {
        return initializers;
    }

    /** Whether {@code ServletContainerInitializer}s are also found with {@code ServiceLoader} (run after these). */
    public boolean discoverInitializers() {
        return discoverInitializers;
    }

    /** Packages scanned for the classes an initializer's {@code @HandlesTypes} asks for. */
    public List<String> scanPackages() {
        return scanPackages;
    }

    /** Listeners registered before the initializers run (they may configure the context). */
    public List<EventListener> listeners() {
        return listeners;
    }

    /** The MIME table, or null for the container's default table. */
    public Map<String, String> mimeMappings() {
        return mimeMappings;
    }

    /** Locale-to-charset mapping for {@code ServletResponse.setLocale}. */
    public Map<Locale, Charset> localeCharsets() {
        return localeCharsets;
    }

    /** Default request body charset, or null (ISO-8859-1). */
    public Charset requestCharacterEncoding() {
        return requestCharacterEncoding;
    }

    /** Default response charset, or null (ISO-8859-1). */
    public Charset responseCharacterEncoding() {
        return responseCharacterEncoding;
    }

    /** The application's class loader. */
    public ClassLoader classLoader() {
        return classLoader;
    }

    /** The document root, or null (an empty private one). */
    public Path documentRoot() {
        return documentRoot;
    }

    /** Jars or directories whose {@code META-INF/resources} are static resources too. */
    public List<URL> staticResourceLocations() {
        return staticResourceLocations;
    }

    /** Whether the default servlet (static resources) is registered as {@code default} at {@code /}. */
    public boolean registerDefaultServlet() {
        return registerDefaultServlet;
    }

    /** The default servlet's welcome files. */
    public List<String> welcomeFiles() {
        return welcomeFiles;
    }

    /** Session settings. */
    public SessionConfig session() {
        return session;
    }

    /** Error pages. */
    public List<ErrorPage> errorPages() {
        return errorPages;
    }

    /** The private temporary directory, or null (created, and deleted on destroy). */
    public Path tempDir() {
        return tempDir;
    }

    /** Default response buffer size in bytes. */
    public int responseBufferSize() {
        return responseBufferSize;
    }

    /** Default {@code AsyncContext} timeout; zero: none. */
    public Duration asyncTimeout() {
        return asyncTimeout;
    }

    /** Limits on query strings and urlencoded bodies. */
    public FormLimits formLimits() {
        return formLimits;
    }

    /** The {@code SameSite} value for an application cookie that has none, or null. */
    public Function<Cookie, String> cookieSameSite() {
        return cookieSameSite;
    }

    /** When response bodies are gzipped, or null for never. */
    public ResponseCompression compression() {
        return compression;
    }

    /** Whether the container's own error page shows the exception's stack trace. */
    public boolean showStackTraces() {
        return showStackTraces;
    }

    /** What {@code ServletContext.getServerInfo()} returns. */
    public String serverInfo() {
        return serverInfo;
    }

    /** Builder of {@link ServletContainerConfig}. */
    public static final class Builder {
        private String contextPath = "";
        private String displayName;
        private final Map<String, String> initParameters = new LinkedHashMap<>();
        private final List<Initializer> initializers = new ArrayList<>();
        private boolean discoverInitializers;
        private final List<String> scanPackages = new ArrayList<>();
        private final List<EventListener> listeners = new ArrayList<>();
        private Map<String, String> mimeMappings;
        private final Map<Locale, Charset> localeCharsets = new LinkedHashMap<>();
        private Charset requestCharacterEncoding;
        private Charset responseCharacterEncoding;
        private ClassLoader classLoader;
        private Path documentRoot;
        private final List<URL> staticResourceLocations = new ArrayList<>();
        private boolean registerDefaultServlet;
        private List<String> welcomeFiles = List.of("index.html");
        private SessionConfig session = SessionConfig.defaults();
        private final List<ErrorPage> errorPages = new ArrayList<>();
        private Path tempDir;
        private int responseBufferSize = 16 * 1024;
        private Duration asyncTimeout = Duration.ofSeconds(30);
        private FormLimits formLimits = FormLimits.defaults();
        private Function<Cookie, String> cookieSameSite;
        private ResponseCompression compression;
        private boolean showStackTraces;
        private String serverInfo = "Weft Servlet/6.1";

        private Builder() {
        }

        /**
         * The context path: {@code ""} for the root context, else starting with {@code /} and not ending with it.
         */
        public Builder contextPath(String path) {
            Objects.requireNonNull(path, "context path");
            if (!path.isEmpty() && (!path.startsWith("/") || path.endsWith("/"))) {
                throw new IllegalArgumentException("context path must be \"\" or start with / and not end with /: "
                        + path);
            }
            this.contextPath = path;
            return this;
        }

        /** The display name. */
        public Builder displayName(String name) {
            this.displayName = name;
            return this;
        }

        /** A context init parameter. */
        public Builder initParameter(String name, String value) {
            initParameters.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /** Context init parameters, added. */
        public Builder initParameters(Map<String, String> parameters) {
            parameters.forEach(this::initParameter);
            return this;
        }

        /** An initializer, called with the classes its {@code @HandlesTypes} finds in {@link #scanPackages}. */
        public Builder initializer(ServletContainerInitializer initializer) {
            initializers.add(new Initializer(initializer, null));
            return this;
        }

        /** An initializer, called with exactly {@code classes} (may be null). */
        public Builder initializer(ServletContainerInitializer initializer, Set<Class<?>> classes) {
            initializers.add(new Initializer(initializer, classes == null ? Set.of() : classes));
            return this;
        }

        /** Also run the initializers {@code ServiceLoader} finds with the class loader (after the given ones). */
        public Builder discoverInitializers(boolean discover) {
            this.discoverInitializers = discover;
            return this;
        }

        /** Packages (with sub-packages) scanned for {@code @HandlesTypes} classes. */
        public Builder scanPackages(String... packages) {
            for (String p : packages) {
                scanPackages.add(Objects.requireNonNull(p, "package"));
            }
            return this;
        }

        /** A listener registered before the initializers run ({@code ServletContextListener} included). */
        public Builder listener(EventListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /** Replaces the MIME table with exactly {@code mappings} (extension without dot → media type). */
        public Builder mimeMappings(Map<String, String> mappings) {
            this.mimeMappings = new LinkedHashMap<>(mappings);
            return this;
        }

        /** Adds one MIME mapping to the table (the default table if none was set). */
        public Builder mimeMapping(String extension, String mediaType) {
            if (mimeMappings == null) {
                mimeMappings = new LinkedHashMap<>(dev.weft.servlet.resource.MimeTable.defaults());
            }
            mimeMappings.put(Objects.requireNonNull(extension, "extension"), Objects.requireNonNull(mediaType, "type"));
            return this;
        }

        /** A locale's charset, for {@code ServletResponse.setLocale}. */
        public Builder localeCharset(Locale locale, Charset charset) {
            localeCharsets.put(Objects.requireNonNull(locale, "locale"), Objects.requireNonNull(charset, "charset"));
            return this;
        }

        /** The default request body charset (null: ISO-8859-1 as the specification says). */
        public Builder requestCharacterEncoding(Charset charset) {
            this.requestCharacterEncoding = charset;
            return this;
        }

        /** The default response charset (null: ISO-8859-1 as the specification says). */
        public Builder responseCharacterEncoding(Charset charset) {
            this.responseCharacterEncoding = charset;
            return this;
        }

        /** The application's class loader (default: the thread's context class loader). */
        public Builder classLoader(ClassLoader loader) {
            this.classLoader = loader;
            return this;
        }

        /** The document root, an existing directory. */
        public Builder documentRoot(Path dir) {
            if (dir != null && !Files.isDirectory(dir)) {
                throw new IllegalArgumentException("document root is not a directory: " + dir);
            }
            this.documentRoot = dir;
            return this;
        }

        /** A jar or directory whose {@code META-INF/resources} holds static resources. */
        public Builder staticResourceLocation(URL location) {
            staticResourceLocations.add(Objects.requireNonNull(location, "location"));
            return this;
        }

        /** Whether to register the default servlet (static resources) as {@code default} at {@code /}. */
        public Builder registerDefaultServlet(boolean register) {
            this.registerDefaultServlet = register;
            return this;
        }

        /** The default servlet's welcome files, in order. */
        public Builder welcomeFiles(List<String> files) {
            this.welcomeFiles = List.copyOf(files);
            return this;
        }

        /** Session settings. */
        public Builder session(SessionConfig session) {
            this.session = Objects.requireNonNull(session, "session");
            return this;
        }

        /** An error page. */
        public Builder errorPage(ErrorPage page) {
            errorPages.add(Objects.requireNonNull(page, "error page"));
            return this;
        }

        /** The private temporary directory (kept on destroy); default: a new one, deleted on destroy. */
        public Builder tempDir(Path dir) {
            this.tempDir = dir;
            return this;
        }

        /** Default response buffer size (at least 0; default 16 KiB). */
        public Builder responseBufferSize(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("response buffer size must not be negative: " + bytes);
            }
            this.responseBufferSize = bytes;
            return this;
        }

        /** Default {@code AsyncContext} timeout (default 30 s; zero: none). */
        public Builder asyncTimeout(Duration timeout) {
            if (timeout == null || timeout.isNegative()) {
                throw new IllegalArgumentException("async timeout must not be negative: " + timeout);
            }
            this.asyncTimeout = timeout;
            return this;
        }

        /** Limits on query strings and urlencoded bodies (default {@link FormLimits#defaults()}). */
        public Builder formLimits(FormLimits limits) {
            this.formLimits = Objects.requireNonNull(limits, "form limits");
            return this;
        }

        /** Chooses a {@code SameSite} value (or null) for each application cookie that has none. */
        public Builder cookieSameSite(Function<Cookie, String> chooser) {
            this.cookieSameSite = chooser;
            return this;
        }

        /** Gzip response bodies as {@code compression} says (default null: never). */
        public Builder compression(ResponseCompression compression) {
            this.compression = compression;
            return this;
        }

        /** Whether the container's own error page shows stack traces (default false). */
        public Builder showStackTraces(boolean show) {
            this.showStackTraces = show;
            return this;
        }

        /** What {@code ServletContext.getServerInfo()} returns. */
        public Builder serverInfo(String info) {
            this.serverInfo = Objects.requireNonNull(info, "server info");
            return this;
        }

        /** The validated configuration. */
        public ServletContainerConfig build() {
            return new ServletContainerConfig(this);
        }
    }
}
