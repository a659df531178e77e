package dev.weft.servlet.context;

import dev.weft.httpserver.forms.FormLimits;
import dev.weft.servlet.response.CompressionRule;
import dev.weft.servlet.session.SessionSettings;
import jakarta.servlet.http.Cookie;

import java.net.URL;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What a context is created with, validated by the embedding API before it gets here. Immutable.
 *
 * @param contextPath               {@code ""} for the root context, else {@code /name} without a trailing slash
 * @param displayName               {@code getServletContextName()}, or null
 * @param initParameters            context init parameters
 * @param mimeMappings              the extension-to-media-type table, exactly
 * @param localeCharsets            locale-to-charset mapping for {@code ServletResponse.setLocale}
 * @param requestCharacterEncoding  default request body charset name, or null (ISO-8859-1 per the spec)
 * @param responseCharacterEncoding default response charset name, or null (ISO-8859-1 per the spec)
 * @param classLoader               the application's class loader
 * @param documentRoot              the document root, or null for an empty private one
 * @param staticResourceLocations   jars or directories with {@code META-INF/resources}
 * @param tempDir                   the private temporary directory, or null for a fresh one
 * @param registerDefaultServlet    whether the default servlet is registered at {@code /}
 * @param welcomeFiles              files the default servlet serves for a directory, in order
 * @param session                   session settings
 * @param responseBufferSize        default response buffer size in bytes
 * @param asyncTimeoutMillis        default {@code AsyncContext} timeout; 0 or less: none
 * @param formLimits                limits on query strings and urlencoded bodies
 * @param cookieSameSite            the {@code SameSite} value for an application cookie without one, or null
 * @param compression               when response bodies are gzipped, or null for never
 * @param serverInfo                {@code getServerInfo()}
 * @param virtualServerName         {@code getVirtualServerName()}
 */
public record ContextSettings(String contextPath, String displayName, Map<String, String> initParameters,
                              Map<String, String> mimeMappings, Map<Locale, Charset> localeCharsets,
                              String requestCharacterEncoding, String responseCharacterEncoding,
                              ClassLoader classLoader, Path documentRoot, List<URL> staticResourceLocations,
                              Path tempDir, boolean registerDefaultServlet, List<String> welcomeFiles,
                              SessionSettings session, int responseBufferSize, long asyncTimeoutMillis,
                              FormLimits formLimits, Function<Cookie, String> cookieSameSite,
                              CompressionRule compression, String serverInfo,
                              String virtualServerName) {
}
