package dev.weft.spring.boot.servlet;

import dev.weft.servlet.ErrorPage;
import dev.weft.servlet.ResponseCompression;
import dev.weft.servlet.ServletContainerConfig;
import dev.weft.servlet.SessionConfig;
import jakarta.servlet.SessionTrackingMode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.Cookie;
import org.springframework.boot.web.server.MimeMappings;
import org.springframework.boot.web.server.servlet.CookieSameSiteSupplier;
import org.springframework.boot.web.server.servlet.DocumentRoot;
import org.springframework.boot.web.server.servlet.Jsp;
import org.springframework.boot.web.server.servlet.ServletContextInitializers;
import org.springframework.boot.web.server.servlet.ServletWebServerSettings;
import org.springframework.boot.web.server.servlet.Session;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.util.ClassUtils;

import java.io.File;
import java.net.URL;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Spring Boot's servlet server settings as a Weft {@link ServletContainerConfig}: one instance per
 * {@code getWebServer} call.
 *
 * <ul>
 * <li>Boot's initializers ({@link ServletContextInitializers#from}: init parameters, session tracking modes and
 *     cookie, then the application's, then the factory's) run in that order, after the web listeners are
 *     added;</li>
 * <li>the MIME table is exactly Boot's ({@link MimeMappings#DEFAULT} plus additions);</li>
 * <li>session timeouts are kept in whole seconds (rounded up), {@code null} or negative: never;</li>
 * <li>persistent sessions are saved in Boot's session store directory;</li>
 * <li>a {@link CookieSameSiteSupplier} never sees the session cookie, whose {@code SameSite} comes from the
 *     session cookie settings alone.</li>
 * </ul>
 */
final class ServletContainerMapping {

    private static final Log logger = LogFactory.getLog(WeftServletWebServerFactory.class);

    private final ServletWebServerSettings settings;
    private final Collection<org.springframework.boot.web.error.ErrorPage> errorPages;
    private final Compression compression;
    private final ClassLoader classLoader;

    ServletContainerMapping(ServletWebServerSettings settings,
            Collection<org.springframework.boot.web.error.ErrorPage> errorPages, Compression compression,
            ClassLoader classLoader) {
        this.settings = settings;
        this.errorPages = errorPages;
        this.compression = compression;
        this.classLoader = classLoader;
    }

    /** The container configuration, with {@code initializers} run after Boot's own. */
    ServletContainerConfig containerConfig(ServletContextInitializer... initializers) {
        ServletContainerConfig.Builder builder = ServletContainerConfig.builder()
                .contextPath(settings.getContextPath().toString())
                .displayName(settings.getDisplayName())
                .classLoader(classLoader)
                .registerDefaultServlet(settings.isRegisterDefaultServlet())
                .mimeMappings(mimeTable(settings.getMimeMappings()))
                .session(session(settings.getSession()))
                .cookieSameSite(sameSiteChooser(settings.getCookieSameSiteSuppliers()))
                .compression(compression(compression));
        settings.getLocaleCharsetMappings().forEach(builder::localeCharset);
        File documentRoot = new DocumentRoot(logger).getValidDirectory();
        File configuredRoot = settings.getDocumentRoot();
        documentRoot = configuredRoot != null ? configuredRoot : documentRoot;
        if (documentRoot != null && documentRoot.isDirectory()) {
            builder.documentRoot(documentRoot.toPath());
        } else if (documentRoot != null) {
            logger.debug("Document root " + documentRoot + " is not a directory; serving none");
        }
        for (URL location : settings.getStaticResourceUrls()) {
            builder.staticResourceLocation(location);
        }
        for (org.springframework.boot.web.error.ErrorPage page : errorPages) {
            builder.errorPage(errorPage(page));
        }
        Set<String> listeners = settings.getWebListenerClassNames();
        if (!listeners.isEmpty()) {
            builder.initializer((classes, context) -> listeners.forEach(context::addListener), null);
        }
        for (ServletContextInitializer initializer : ServletContextInitializers.from(settings, initializers)) {
            builder.initializer((classes, context) -> initializer.onStartup(context), null);
        }
        warnIfJspRequested(settings.getJsp());
        return builder.build();
    }

    private static Map<String, String> mimeTable(MimeMappings mappings) {
        Map<String, String> table = new LinkedHashMap<>();
        for (MimeMappings.Mapping mapping : mappings) {
            table.put(mapping.getExtension(), mapping.getMimeType());
        }
        return table;
    }

    private static SessionConfig session(Session session) {
        SessionConfig.Builder builder = SessionConfig.builder().timeout(seconds(session.getTimeout()));
        if (session.getTrackingModes() != null) {
            Set<SessionTrackingMode> modes = EnumSet.noneOf(SessionTrackingMode.class);
            session.getTrackingModes().forEach(mode -> modes.add(SessionTrackingMode.valueOf(mode.name())));
            builder.trackingModes(modes);
        }
        if (session.isPersistent()) {
            builder.storeDir(session.getSessionStoreDirectory().getValidDirectory(true).toPath());
        }
        Cookie cookie = session.getCookie();
        if (cookie.getSameSite() != null && cookie.getSameSite().attributeValue() != null) {
            builder.cookieAttribute("SameSite", cookie.getSameSite().attributeValue());
        }
        return builder.build();
    }

    /** A positive timeout in whole seconds, rounded up; {@code null}, zero or negative: never. */
    private static Duration seconds(Duration timeout) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            return Duration.ZERO;
        }
        return Duration.ofSeconds(timeout.getNano() > 0 ? timeout.getSeconds() + 1 : timeout.getSeconds());
    }

    private static Function<jakarta.servlet.http.Cookie, String> sameSiteChooser(
            List<? extends CookieSameSiteSupplier> suppliers) {
        if (suppliers.isEmpty()) {
            return null;
        }
        List<CookieSameSiteSupplier> chain = List.copyOf(suppliers);
        return cookie -> chain.stream()
                .map(supplier -> supplier.getSameSite(cookie))
                .filter(Objects::nonNull)
                .findFirst()
                .map(Cookie.SameSite::attributeValue)
                .orElse(null);
    }

    private static ResponseCompression compression(Compression compression) {
        if (compression == null || !compression.getEnabled()) {
            return null;
        }
        String[] agents = compression.getExcludedUserAgents();
        return new ResponseCompression(Arrays.asList(compression.getAllMimeTypes()),
                compression.getMinResponseSize().toBytes(), agents == null ? List.of() : Arrays.asList(agents));
    }

    private static ErrorPage errorPage(org.springframework.boot.web.error.ErrorPage page) {
        if (page.isGlobal()) {
            return ErrorPage.global(page.getPath());
        }
        if (page.getException() != null) {
            return ErrorPage.forException(page.getException(), page.getPath());
        }
        return ErrorPage.forStatus(page.getStatusCode(), page.getPath());
    }

    private void warnIfJspRequested(Jsp jsp) {
        if (jsp != null && jsp.getRegistered() && ClassUtils.isPresent(jsp.getClassName(), classLoader)) {
            logger.warn("JSP is not supported by Weft: " + jsp.getClassName() + " is on the class path but no "
                    + "JSP servlet is registered (set server.servlet.jsp.registered=false to silence this)");
        }
    }
}
