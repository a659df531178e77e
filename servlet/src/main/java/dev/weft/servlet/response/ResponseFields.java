package dev.weft.servlet.response;

import com.sun.net.httpserver.Headers;
import dev.weft.servlet.context.WeftServletContext;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The header fields of the container's response until it commits (§5.2, §5.6): fields kept in the exchange's
 * {@link Headers}, except {@code Content-Type} and {@code Content-Length}, which are the response's own state
 * because of the character-encoding rules of {@code setContentType}, {@code setCharacterEncoding} and
 * {@code setLocale}. After the commit, and during an include, nothing changes. {@link WeftResponse} adds the
 * status, the body and the commit.
 */
abstract class ResponseFields implements HttpServletResponse {

    final WeftServletContext context;
    final Headers headers;
    String contentType;
    String charset;
    boolean charsetFromContentTypeOrSetter;
    Locale locale;
    boolean localeSet;
    long contentLength = -1;
    int includeDepth;

    ResponseFields(WeftServletContext context, Headers headers) {
        this.context = context;
        this.headers = headers;
    }

    /** Whether {@code getWriter()} has fixed the charset. */
    abstract boolean writerObtained();

    /** Back to no fields at all ({@code reset()}). */
    void clearFields() {
        headers.clear();
        clearContent();
        locale = null;
        localeSet = false;
    }

    /** The content description cleared (for the container's error page); other fields kept. */
    void clearContent() {
        contentType = null;
        charset = null;
        charsetFromContentTypeOrSetter = false;
        contentLength = -1;
        headers.remove("Content-Length");
    }

    /** Writes {@code Content-Type} and {@code Content-Language} into the fields to send; returns the type. */
    String completeFields() {
        String type = getContentType();
        if (type != null) {
            headers.set("Content-Type", type);
        }
        if (localeSet && locale != null) {
            headers.set("Content-Language", locale.toLanguageTag());
        }
        headers.remove("Content-Length");
        return type;
    }

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
    public void setCharacterEncoding(String enc) {
        if (isCommitted() || writerObtained() || includeDepth > 0) {
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
            if (!writerObtained()) {
                charset = null;
                charsetFromContentTypeOrSetter = false;
            }
            return;
        }
        ContentType parsed = ContentType.parse(type);
        contentType = parsed.withoutCharset();
        if (parsed.charset() != null && !writerObtained()) {
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
    public void setLocale(Locale loc) {
        if (loc == null || isCommitted() || includeDepth > 0) {
            return;
        }
        locale = loc;
        localeSet = true;
        if (!charsetFromContentTypeOrSetter && !writerObtained()) {
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

    /** Includes nest: while inside one, status and headers are left alone. */
    public void enterInclude() {
        includeDepth++;
    }

    /** Leaves an include. */
    public void leaveInclude() {
        includeDepth--;
    }
}
