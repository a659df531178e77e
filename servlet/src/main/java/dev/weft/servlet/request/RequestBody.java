package dev.weft.servlet.request;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.weft.httpserver.ExchangeAttributes;
import dev.weft.httpserver.forms.FormFields;
import dev.weft.servlet.context.ServletEntry;
import dev.weft.servlet.context.WeftServletContext;
import dev.weft.servlet.response.ContentType;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.Part;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A request's body and what is read from it (§3.1, §3.2, §3.12): read one way only — a stream, a reader, form
 * parameters or multipart parts — in the request's character encoding; parameters and parts parsed once, on
 * demand, a failure answered the same way on every later call; trailer fields once the body has ended. Used by
 * the request's threads one at a time.
 */
final class RequestBody {

    private enum Use { NONE, STREAM, READER, PARAMETERS, PARTS }

    private final HttpExchange exchange;
    private final WeftServletContext context;
    private final BooleanSupplier asyncStarted;
    private final Supplier<ServletEntry> servlet;
    private final RequestParameters parameters;
    private Use use = Use.NONE;
    private RequestInput input;
    private BufferedReader reader;
    private String characterEncoding;
    private List<UploadedPart> parts;
    private RequestInputException partsFailure;

    /**
     * @param servlet the servlet of the current dispatch (whose multipart configuration applies)
     */
    RequestBody(HttpExchange exchange, WeftServletContext context, BooleanSupplier asyncStarted,
                Supplier<ServletEntry> servlet) {
        this.exchange = exchange;
        this.context = context;
        this.asyncStarted = asyncStarted;
        this.servlet = servlet;
        this.parameters = new RequestParameters(exchange.getRequestURI().getRawQuery(),
                context.settings().formLimits());
    }

    // ---- encodings

    String characterEncoding() {
        if (characterEncoding != null) {
            return characterEncoding;
        }
        String type = contentType();
        if (type != null) {
            String cs = ContentType.parse(type).charset();
            if (cs != null) {
                return cs;
            }
        }
        return context.getRequestCharacterEncoding();
    }

    void characterEncoding(String encoding) throws UnsupportedEncodingException {
        if (use != Use.NONE) {
            return; // too late: the body has been read with the previous encoding
        }
        if (encoding != null) {
            try {
                Charset.forName(encoding);
            } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
                throw new UnsupportedEncodingException(encoding);
            }
        }
        this.characterEncoding = encoding;
    }

    /** The charset the body is decoded in: the request's, else ISO-8859-1 (§3.12). */
    private Charset charset() {
        String name = characterEncoding();
        if (name == null) {
            return StandardCharsets.ISO_8859_1;
        }
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new RequestInputException(415, "unsupported request charset " + name, e);
        }
    }

    private String contentType() {
        return exchange.getRequestHeaders().getFirst("Content-Type");
    }

    // ---- the body as a stream or a reader

    RequestInput input() {
        if (input == null) {
            Headers h = exchange.getRequestHeaders();
            String length = h.getFirst("Content-Length");
            boolean knownEmpty = "0".equals(length == null ? null : length.strip())
                    || length == null && !h.containsKey("Transfer-Encoding")
                    && !exchange.getProtocol().startsWith("HTTP/2");
            input = new RequestInput(exchange.getRequestBody(), knownEmpty, context, asyncStarted);
        }
        return input;
    }

    ServletInputStream inputStream() {
        if (use == Use.READER) {
            throw new IllegalStateException("getReader() has been called on this request");
        }
        if (use == Use.NONE) {
            use = Use.STREAM;
        }
        return input();
    }

    BufferedReader reader() throws IOException {
        if (use == Use.STREAM) {
            throw new IllegalStateException("getInputStream() has been called on this request");
        }
        if (reader == null) {
            Charset cs;
            try {
                cs = charset();
            } catch (RequestInputException e) {
                throw new UnsupportedEncodingException(characterEncoding());
            }
            reader = new BufferedReader(new InputStreamReader(input(), cs));
            use = Use.READER;
        }
        return reader;
    }

    boolean clientFailed() {
        return input != null && input.clientFailed();
    }

    // ---- parameters

    Map<String, List<String>> parameters() {
        return parameters.current(this::bodyFields);
    }

    void pushParameters(String query) {
        parameters.push(query, this::bodyFields);
    }

    void popParameters() {
        parameters.pop();
    }

    /** The form part of the parameters (§3.1.1): a POSTed urlencoded body, or a multipart body's text parts. */
    private List<FormFields.Field> bodyFields() throws Exception {
        if (!exchange.getRequestMethod().equals("POST") || use != Use.NONE && use != Use.PARTS) {
            return List.of();
        }
        String type = contentType();
        String media = type == null ? "" : type.split(";", 2)[0].strip().toLowerCase(Locale.ROOT);
        if (media.equals("application/x-www-form-urlencoded") && use == Use.NONE) {
            use = Use.PARAMETERS;
            return FormDecoder.read(input(), charset(), context.settings().formLimits());
        }
        ServletEntry s = servlet.get();
        if (media.equals("multipart/form-data") && (parts != null || s != null && s.multipartConfig() != null)) {
            List<FormFields.Field> fields = new ArrayList<>();
            for (Part p : parts()) {
                if (p.getSubmittedFileName() == null && p instanceof UploadedPart part) {
                    String cs = p.getContentType() == null ? null : ContentType.parse(p.getContentType()).charset();
                    fields.add(new FormFields.Field(p.getName(), part.text(cs == null ? charset() : Charset.forName(cs))));
                }
            }
            return fields;
        }
        return List.of();
    }

    /** {@code getParameterMap()}'s view: unmodifiable, values as arrays. */
    Map<String, String[]> parameterMap() {
        Map<String, String[]> m = new LinkedHashMap<>();
        parameters().forEach((k, v) -> m.put(k, v.toArray(new String[0])));
        return Collections.unmodifiableMap(m);
    }

    // ---- multipart

    Collection<Part> parts() throws IOException, ServletException {
        if (partsFailure != null) {
            throw partsFailure; // the same answer on every call, as during an error dispatch
        }
        if (parts == null) {
            ServletEntry s = servlet.get();
            MultipartConfigElement config = s == null ? null : s.multipartConfig();
            if (config == null) {
                throw new IllegalStateException("no multipart configuration for servlet "
                        + (s == null ? "(none)" : s.getName()));
            }
            String type = contentType();
            if (type == null || !type.toLowerCase(Locale.ROOT).startsWith("multipart/form-data")) {
                throw new ServletException("the request is not multipart/form-data");
            }
            if (use != Use.NONE && use != Use.PARAMETERS) {
                throw new IllegalStateException("the request body has been read already");
            }
            use = Use.PARTS;
            Path location = context.tempDir();
            if (config.getLocation() != null && !config.getLocation().isEmpty()) {
                location = location.resolve(config.getLocation());
            }
            try {
                parts = MultipartParts.read(input(), type, contentLength(), config, location);
            } catch (RequestInputException e) {
                partsFailure = e;
                throw e;
            }
        }
        return Collections.unmodifiableList(new ArrayList<>(parts));
    }

    private long contentLength() {
        String v = exchange.getRequestHeaders().getFirst("Content-Length");
        try {
            return v == null ? -1 : Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    // ---- trailer fields

    boolean trailerFieldsReady() {
        return input().endReached();
    }

    Map<String, String> trailerFields() {
        if (!trailerFieldsReady()) {
            throw new IllegalStateException("the request body has not been read to its end");
        }
        Map<String, String> fields = new LinkedHashMap<>();
        if (exchange.getAttribute(ExchangeAttributes.REQUEST_TRAILERS) instanceof Headers trailers) {
            trailers.forEach((k, v) -> fields.put(k.toLowerCase(Locale.ROOT), String.join(",", v)));
        }
        return fields;
    }

    /** The request ended: temporary upload files are removed. */
    void recycle() {
        if (parts != null) {
            MultipartParts.deleteAll(parts); // idempotent
        }
    }
}
