package dev.weft.servlet.response;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.servlet.context.WeftServletContext;
import jakarta.servlet.ServletOutputStream;
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
public final class WeftResponse extends ResponseFields {

    private enum BodyUse { NONE, STREAM, WRITER }

    private final HttpExchange exchange;
    private final ResponseOutput output;
    private RequestFacts request;
    private BodyUse bodyUse = BodyUse.NONE;
    private PrintWriter writer;
    private volatile int status = SC_OK;
    private Supplier<Map<String, String>> trailers;
    private volatile boolean appCommitted;
    private boolean errorPending;
    private String errorMessage;

    public WeftResponse(HttpExchange exchange, WeftServletContext context) {
        super(context, exchange.getResponseHeaders());
        this.exchange = exchange;
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
        clearContent();
    }

    /** A forward returned (§9.4): the application's further output is ignored; the container completes it. */
    public void closeAfterForward() {
        appCommitted = true;
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
        String type = completeFields();
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

    /**
     * Called just before the body ends (by the thread ending it, with no lock held, as the application's
     * supplier runs): the trailer fields are handed to the engine.
     */
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
    boolean writerObtained() {
        return writer != null;
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
        clearFields();
        status = SC_OK;
        trailers = null;
        bodyUse = BodyUse.NONE;
        writer = null;
        request.restoreSessionCookie();
    }
}
