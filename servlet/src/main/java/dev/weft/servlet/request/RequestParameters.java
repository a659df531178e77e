package dev.weft.servlet.request;

import dev.weft.httpserver.forms.FormException;
import dev.weft.httpserver.forms.FormFields;
import dev.weft.httpserver.forms.FormLimits;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The request's parameters (Servlet 6.1 §3.1): the query string first, then the POSTed form (or the text parts
 * of a multipart body), parsed once, on first use; each dispatch with a query string of its own puts its
 * parameters in front for its duration. A parse failure is a {@link RequestInputException} (4xx), thrown again
 * on every later call. Not thread-safe (the request's thread).
 */
final class RequestParameters {

    /** Where the form part of the parameters comes from, called once. */
    interface BodySource {
        List<FormFields.Field> bodyFields() throws Exception;
    }

    private final String rawQuery;
    private final FormLimits limits;
    private final Deque<Map<String, List<String>>> overlays = new ArrayDeque<>();
    private Map<String, List<String>> base;
    private RequestInputException failure;

    RequestParameters(String rawQuery, FormLimits limits) {
        this.rawQuery = rawQuery;
        this.limits = limits;
    }

    /** The parameters now in effect, parsing them first if needed. */
    Map<String, List<String>> current(BodySource body) {
        Map<String, List<String>> top = overlays.peek();
        return top != null ? top : base(body);
    }

    private Map<String, List<String>> base(BodySource body) {
        if (failure != null) {
            throw failure;
        }
        if (base == null) {
            Map<String, List<String>> m = new LinkedHashMap<>();
            try {
                add(m, FormDecoder.query(rawQuery, limits));
                add(m, body.bodyFields());
            } catch (FormException e) {
                failure = new RequestInputException(e.statusCode(), "request parameters: " + e.getMessage(), e);
                throw failure;
            } catch (RequestInputException e) {
                failure = e;
                throw e;
            } catch (Exception e) {
                failure = new RequestInputException(400, "request parameters could not be read: " + e, e);
                throw failure;
            }
            base = m;
        }
        return base;
    }

    /**
     * Puts the parameters of a dispatcher's query string in front of the current ones (§9.1.1).
     *
     * @throws RequestInputException when the query string is malformed
     */
    void push(String query, BodySource body) {
        Map<String, List<String>> merged = new LinkedHashMap<>();
        if (query != null && !query.isEmpty()) {
            try {
                add(merged, FormDecoder.query(query, limits));
            } catch (FormException e) {
                throw new RequestInputException(400, "dispatcher query string: " + e.getMessage(), e);
            }
        }
        for (Map.Entry<String, List<String>> e : current(body).entrySet()) {
            merged.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).addAll(e.getValue());
        }
        overlays.push(merged);
    }

    /** Drops the parameters of the dispatch that ended. */
    void pop() {
        overlays.pop();
    }

    private static void add(Map<String, List<String>> m, List<FormFields.Field> fields) {
        for (FormFields.Field f : fields) {
            m.computeIfAbsent(f.name(), k -> new ArrayList<>()).add(f.value());
        }
    }
}
