package dev.weft.servlet.response;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.servlet.context.WeftServletContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.UnsupportedEncodingException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.zip.GZIPOutputStream;

/**
 * The container's {@link HttpServletResponse} over one engine exchange (Servlet 6.1 §5): status and header
 * fields kept until the response commits, then sent as the exchange's head; the body through
 * {@link ResponseOutput}; the character-encoding rules of {@code setContentType}, {@code setCharacterEncoding}
 * and {@code setLocale} (§5.6); {@code sendError} and {@code sendRedirect}, which end the application's part of
 * the response (the container then writes the error page or the redirect). During an include
 * ({@link #enterInclude}) the status and headers cannot change.
 */
public final class WeftResponse implements HttpServletResponse {

    private enum BodyUse { NONE, STREAM, WRITER }

    private final HttpExchange exchange;
    private final WeftServletContext context;
    private final Headers headers;
    private final ResponseOutput output;
    private RequestFacts request;
    private BodyUse bodyUse = BodyUse.NONE;
    private PrintWriter writer;
    private volatile int status = SC_OK;
    private String contentType;
    private String charset;
    private boolean charsetFromContentTypeOrSetter;
    private Locale locale;
    private boolean localeSet;
    private long contentLength = -1;
    private Supplier<Map<String, String>> trailers;
    private int includeDepth;
    private volatile boolean appCommitted;
    private boolean errorPending;
    private String errorMessage;

    public WeftResponse(HttpExchange exchange, WeftServletContext context) {
        this.exchange = exchange;
        this.context = context;
        this.headers = exchange.getResponseHeaders();
        this.output = new ResponseOutput(this, context.settings().responseBufferSize());
    }

    /** Connects the request (set once, right after both are created). */
    public void request(RequestFacts facts) {
        this.request = facts;
    }

    WeftServletContext context() {
        return context;
    }

    boolean asyncStarted() {
        return request.asyncStarted();
    }

    // ---- container side

    /** Whether {@code sendError} was called and the error page is still to be produced. */
    public boolean isErrorPending() {
        return errorPending;
    }

    /** The message given to {@code sendError}, or null. */
    public String errorMessage() {
        return errorMessage;
    }

    /**
     * Marks an error the container found (an exception, an unavailable servlet) as if {@code sendError} had been
     * called; false when the response is committed already (nothing can be sent then).
     */
    public boolean containerError(int sc, String message) {
        if (output.isCommitted()) {
            return false;
        }
        output.clearBuffer();
        status = sc;
        errorPending = true;
        errorMessage = message;
        appCommitted = true;
        output.suspend();
        return true;
    }

    /**
     * Prepares the response for the container's error page: the error no longer pending, the body empty and
     * writable again, the content type cleared; status, cookies and other fields kept.
     */
    public void beginErrorPage() {
        errorPending = false;
        appCommitted = false;
        output.clearBuffer();
        output.resume();
        bodyUse = BodyUse.NONE;
        writer = null;
        contentType = null;
        charset = null;
        charsetFromContentTypeOrSetter = false;
        contentLength = -1;
        headers.remove("Content-Length");
    }

    /** Includes nest: while inside one, status and headers are left alone. */
    public void enterInclude() {
        includeDepth++;
    }

    /** Leaves an include. */
    public void leaveInclude() {
        includeDepth--;
    }

    /** A forward returned (§9.4): the application's further output is ignored; the container completes it. */
    public void closeAfterForward() {
        output.suspend();
    }

    /** The output stream, for the container's own writing. */
    public ResponseOutput output() {
        return output;
    }

    /**
     * Completes the response: everything written is sent (with a {@code Content-Length} when it all fit in the
     * buffer) and the body ended. The exchange itself is closed by the caller.
     */
    public void finish() throws IOException {
        output.finish();
    }

    /** The exchange this response writes to. */
    public HttpExchange exchange() {
        return exchange;
    }

    long declaredContentLength() {
        return contentLength;
    }

    /**
     * Sends the head: called by the output once, when it commits.
     *
     * @param completeLength the whole body's length when everything is in the buffer, else -1
     * @return the engine's body stream, or null when the body must be discarded (HEAD)
     */
    OutputStream commitHead(long completeLength) throws IOException {
        String type = getContentType();
        if (type != null) {
            headers.set("Content-Type", type);
        }
        if (localeSet && locale != null) {
            headers.set("Content-Language", locale.toLanguageTag());
        }
        headers.remove("Content-Length");
        long length;
        if (trailers != null) {
            length = 0;
        } else if (contentLength >= 0) {
            length = contentLength == 0 ? -1 : contentLength;
        } else if (completeLength >= 0) {
            length = completeLength == 0 ? -1 : completeLength;
        } else {
            length = 0;
        }
        int sc = status;
        if (sc == SC_NO_CONTENT || sc == SC_NOT_MODIFIED) {
            length = -1;
        }
        CompressionRule gzip = context.settings().compression();
        if (gzip != null && length != -1 && gzip.applies(exchange.getRequestMethod(), exchange.getRequestHeaders(), sc,
                headers, type, length > 0 && trailers == null ? length : -1)) {
            headers.set("Content-Encoding", "gzip");
            headers.add("Vary", "Accept-Encoding");
            exchange.sendResponseHeaders(sc, 0);
            return new GZIPOutputStream(exchange.getResponseBody(), 8192, true);
        }
        if (sc == SC_SWITCHING_PROTOCOLS) {
            exchange.sendResponseHeaders(sc, 0); // the engine hands the raw connection over
            return null;
        }
        if (request.isHead()) {
            if (length == -1 && sc != SC_NO_CONTENT && sc != SC_NOT_MODIFIED) {
                headers.set("Content-Length", "0");
            }
            exchange.sendResponseHeaders(sc, length > 0 ? length : -1);
            return null;
        }
        exchange.sendResponseHeaders(sc, length);
        return length == -1 ? null : exchange.getResponseBody();
    }

    /** Called just before the body ends: the trailer fields are handed to the engine. */
    void beforeBodyEnds() {
        Supplier<Map<String, String>> t = trailers;
        if (t == null) {
            return;
        }
        Map<String, String> fields = t.get();
        if (fields != null && !fields.isEmpty()) {
            Headers h = new Headers();
            fields.forEach((k, v) -> {
                if (k != null && v != null) {
                    h.add(k, v);
                }
            });
            exchange.setAttribute(ExchangeAttributes.RESPONSE_TRAILERS, h);
        }
    }

    // ---- status

    @Override
    public void setStatus(int sc) {
        if (isCommitted() || includeDepth > 0) {
            return;
        }
        if (sc < 100 || sc > 999) {
            throw new IllegalArgumentException("invalid status code " + sc);
        }
        status = sc;
    }

    @Override
    public int getStatus() {
        return status;
    }

    @Override
    public void sendError(int sc, String msg) throws IOException {
        if (includeDepth > 0) {
            return;
        }
        if (isCommitted()) {
            throw new IllegalStateException("sendError after the response was committed");
        }
        if (sc < 100 || sc > 999) {
            throw new IllegalArgumentException("invalid status code " + sc);
        }
        containerError(sc, msg);
    }

    @Override
    public void sendError(int sc) throws IOException {
        sendError(sc, null);
    }

    @Override
    public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
        Objects.requireNonNull(location, "location");
        if (includeDepth > 0) {
            return;
        }
        if (isCommitted()) {
            throw new IllegalStateException("sendRedirect after the response was committed");
        }
        if (sc < 300 || sc > 399) {
            throw new IllegalArgumentException("not a redirect status: " + sc);
        }
        String absolute = absolute(location);
        status = sc;
        headers.set("Location", absolute);
        if (clearBuffer) {
            output.clearBuffer();
            contentLength = -1;
            setContentType("text/html;charset=utf-8");
            byte[] note = ("<!doctype html><title>" + sc + "</title><p>Moved to <a href=\"" + HtmlText.escape(absolute)
                    + "\">" + HtmlText.escape(absolute) + "</a>.</p>\n").getBytes(StandardCharsets.UTF_8);
            output.writeBlocking(note, 0, note.length);
        }
        appCommitted = true;
        output.suspend();
    }

    /** A redirect location made absolute (RFC 3986 §5.2 against the request URL). */
    private String absolute(String location) {
        try {
            URI loc = new URI(location);
            if (loc.isAbsolute()) {
                return location;
            }
            String scheme = request.scheme();
            if (location.startsWith("//")) {
                return scheme + ":" + location;
            }
            int port = request.serverPort();
            boolean defaultPort = scheme.equals("http") && port == 80 || scheme.equals("https") && port == 443;
            String host = request.serverName();
            if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
                host = "[" + host + "]";
            }
            URI base = new URI(scheme + "://" + host + (defaultPort ? "" : ":" + port) + request.requestUri());
            return base.resolve(loc).toASCIIString();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("redirect location is not a valid URI reference: " + location, e);
        }
    }

    // ---- headers

    @Override
    public void addCookie(Cookie cookie) {
        if (isCommitted() || includeDepth > 0) {
            return;
        }
        Objects.requireNonNull(cookie, "cookie");
        String sameSite = context.settings().cookieSameSite() == null ? null
                : context.settings().cookieSameSite().apply(cookie);
        headers.add("Set-Cookie", SetCookieHeader.format(cookie, sameSite));
    }

    /** Adds the session cookie, which the SameSite default for application cookies does not touch. */
    public void addSessionCookie(Cookie cookie) {
        headers.add("Set-Cookie", SetCookieHeader.format(cookie, null));
    }

    @Override
    public boolean containsHeader(String name) {
        return getHeader(name) != null;
    }

    @Override
    public void setHeader(String name, String value) {
        if (name == null || isCommitted() || includeDepth > 0) {
            return;
        }
        if (special(name, value, true)) {
            return;
        }
        if (value == null) {
            headers.remove(name);
        } else {
            headers.set(name, checkValue(name, value));
        }
    }

    @Override
    public void addHeader(String name, String value) {
        if (name == null || value == null || isCommitted() || includeDepth > 0) {
            return;
        }
        if (special(name, value, false)) {
            return;
        }
        headers.add(name, checkValue(name, value));
    }

    /** Content-Type and Content-Length are kept as the response's own state. */
    private boolean special(String name, String value, boolean set) {
        if (name.equalsIgnoreCase("Content-Type")) {
            if (value == null) {
                contentType = null;
                charset = null;
                charsetFromContentTypeOrSetter = false;
            } else {
                setContentType(value);
            }
            return true;
        }
        if (name.equalsIgnoreCase("Content-Length")) {
            if (value == null) {
                contentLength = -1;
            } else {
                try {
                    setContentLengthLong(Long.parseLong(value.strip()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("invalid Content-Length: " + value, e);
                }
            }
            return true;
        }
        return false;
    }

    private static String checkValue(String name, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0 || c > 0xff) {
                throw new IllegalArgumentException("response header " + name + " has a character that cannot be sent");
            }
        }
        return value;
    }

    @Override
    public void setDateHeader(String name, long date) {
        setHeader(name, HttpDates.format(date));
    }

    @Override
    public void addDateHeader(String name, long date) {
        addHeader(name, HttpDates.format(date));
    }

    @Override
    public void setIntHeader(String name, int value) {
        setHeader(name, String.valueOf(value));
    }

    @Override
    public void addIntHeader(String name, int value) {
        addHeader(name, String.valueOf(value));
    }

    @Override
    public String getHeader(String name) {
        if (name == null) {
            return null;
        }
        if (name.equalsIgnoreCase("Content-Type")) {
            return getContentType();
        }
        if (name.equalsIgnoreCase("Content-Length")) {
            return contentLength >= 0 ? String.valueOf(contentLength) : headers.getFirst(name);
        }
        return headers.getFirst(name);
    }

    @Override
    public Collection<String> getHeaders(String name) {
        if (name == null) {
            return List.of();
        }
        if (name.equalsIgnoreCase("Content-Type") || name.equalsIgnoreCase("Content-Length")) {
            String v = getHeader(name);
            return v == null ? List.of() : List.of(v);
        }
        List<String> values = headers.get(name);
        return values == null ? List.of() : List.copyOf(values);
    }

    @Override
    public Collection<String> getHeaderNames() {
        List<String> names = new ArrayList<>(headers.keySet());
        if (getContentType() != null && !headers.containsKey("Content-Type")) {
            names.add("Content-Type");
        }
        if (contentLength >= 0 && !headers.containsKey("Content-Length")) {
            names.add("Content-Length");
        }
        return names;
    }

    @Override
    public void setTrailerFields(Supplier<Map<String, String>> supplier) {
        if (isCommitted()) {
            throw new IllegalStateException("trailer fields set after the response was committed");
        }
        if (!request.trailersAllowed()) {
            throw new IllegalStateException("the request's protocol cannot carry trailer fields");
        }
        this.trailers = supplier;
    }

    @Override
    public Supplier<Map<String, String>> getTrailerFields() {
        return trailers;
    }

    // ---- URLs

    @Override
    public String encodeURL(String url) {
        String id = request.sessionIdForUrls();
        if (url == null || id == null || !isLocal(url)) {
            return url;
        }
        int end = url.length();
        int q = url.indexOf('?');
        int h = url.indexOf('#');
        if (q >= 0) {
            end = q;
        }
        if (h >= 0 && h < end) {
            end = h;
        }
        String path = url.substring(0, end);
        if (path.contains(";" + request.sessionUrlParameter() + "=")) {
            return url;
        }
        return path + ";" + request.sessionUrlParameter() + "=" + id + url.substring(end);
    }

    @Override
    public String encodeRedirectURL(String url) {
        return encodeURL(url);
    }

    private boolean isLocal(String url) {
        try {
            URI u = new URI(url);
            if (!u.isAbsolute()) {
                return !url.startsWith("//");
            }
            return request.serverName().equalsIgnoreCase(u.getHost());
        } catch (URISyntaxException e) {
            return false;
        }
    }

    // ---- body

    @Override
    public ServletOutputStream getOutputStream() {
        if (bodyUse == BodyUse.WRITER) {
            throw new IllegalStateException("getWriter() has been called on this response");
        }
        bodyUse = BodyUse.STREAM;
        return output;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        if (bodyUse == BodyUse.STREAM) {
            throw new IllegalStateException("getOutputStream() has been called on this response");
        }
        if (writer == null) {
            Charset cs;
            try {
                cs = Charset.forName(getCharacterEncoding());
            } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
                throw new UnsupportedEncodingException(getCharacterEncoding());
            }
            if (charset == null) {
                charset = cs.name(); // the charset used now shows in the Content-Type
            }
            writer = new PrintWriter(new EncodingWriter(output, cs), false);
            bodyUse = BodyUse.WRITER;
        }
        return writer;
    }

    @Override
    public void setCharacterEncoding(String enc) {
        if (isCommitted() || writer != null || includeDepth > 0) {
            return;
        }
        if (enc == null) {
            charset = null;
            charsetFromContentTypeOrSetter = false;
            return;
        }
        charset = enc;
        charsetFromContentTypeOrSetter = true;
    }

    @Override
    public void setCharacterEncoding(Charset encoding) {
        setCharacterEncoding(encoding == null ? null : encoding.name());
    }

    @Override
    public String getCharacterEncoding() {
        if (charset != null) {
            return charset;
        }
        String fallback = context.getResponseCharacterEncoding();
        return fallback != null ? fallback : StandardCharsets.ISO_8859_1.name();
    }

    @Override
    public void setContentType(String type) {
        if (isCommitted() || includeDepth > 0) {
            return;
        }
        if (type == null) {
            contentType = null;
            if (!charsetFromContentTypeOrSetter || writer == null) {
                charset = writer != null ? charset : null;
            }
            return;
        }
        ContentType parsed = ContentType.parse(type);
        contentType = parsed.withoutCharset();
        if (parsed.charset() != null && writer == null) {
            charset = parsed.charset();
            charsetFromContentTypeOrSetter = true;
        }
    }

    @Override
    public String getContentType() {
        if (contentType == null) {
            return null;
        }
        return charset == null ? contentType : contentType + ";charset=" + charset;
    }

    @Override
    public void setContentLength(int len) {
        setContentLengthLong(len);
    }

    @Override
    public void setContentLengthLong(long len) {
        if (isCommitted() || includeDepth > 0) {
            return;
        }
        contentLength = len < 0 ? -1 : len;
    }

    @Override
    public void setBufferSize(int size) {
        if (isCommitted()) {
            throw new IllegalStateException("setBufferSize after the response was committed");
        }
        output.bufferSize(size);
    }

    @Override
    public int getBufferSize() {
        return output.bufferSize();
    }

    @Override
    public void flushBuffer() throws IOException {
        if (appCommitted && !errorPending && output.isSuspended()) {
            return;
        }
        output.flush();
    }

    @Override
    public void resetBuffer() {
        if (isCommitted()) {
            throw new IllegalStateException("resetBuffer after the response was committed");
        }
        output.clearBuffer();
    }

    @Override
    public boolean isCommitted() {
        return appCommitted || output.isCommitted();
    }

    @Override
    public void reset() {
        if (isCommitted()) {
            throw new IllegalStateException("reset after the response was committed");
        }
        if (includeDepth > 0) {
            return;
        }
        output.clearBuffer();
        headers.clear();
        status = SC_OK;
        contentType = null;
        charset = null;
        charsetFromContentTypeOrSetter = false;
        locale = null;
        localeSet = false;
        contentLength = -1;
        trailers = null;
        bodyUse = BodyUse.NONE;
        writer = null;
        request.restoreSessionCookie();
    }

    @Override
    public void setLocale(Locale loc) {
        if (loc == null || isCommitted() || includeDepth > 0) {
            return;
        }
        locale = loc;
        localeSet = true;
        if (!charsetFromContentTypeOrSetter && writer == null) {
            Charset mapped = context.charsetFor(loc);
            if (mapped != null) {
                charset = mapped.name();
            }
        }
    }

    @Override
    public Locale getLocale() {
        return locale != null ? locale : Locale.getDefault();
    }
}
