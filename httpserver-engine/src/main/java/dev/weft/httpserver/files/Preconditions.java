package dev.weft.httpserver.files;

import com.sun.net.httpserver.Headers;

import java.util.List;

/**
 * Conditional requests for GET and HEAD (RFC 9110 §13): evaluates {@code If-Match}, {@code If-Unmodified-Since},
 * {@code If-None-Match}, {@code If-Modified-Since} in the order of §13.2.2, and {@code If-Range} (§13.1.5).
 * Stateless.
 */
final class Preconditions {

    /** What the conditional header fields ask for. */
    enum Outcome {
        /** No condition failed: answer normally. */
        PROCEED,
        /** {@code 304 Not Modified}. */
        NOT_MODIFIED,
        /** {@code 412 Precondition Failed}. */
        PRECONDITION_FAILED
    }

    private Preconditions() {
    }

    /**
     * The outcome for a GET or HEAD of a representation with the strong entity tag {@code etag} (quotes included)
     * last modified at {@code lastModified} (epoch seconds).
     */
    static Outcome evaluate(Headers request, String etag, long lastModified) {
        String ifMatch = joined(request, "If-Match");
        if (ifMatch != null) {
            // §13.1.1: strong comparison; false → 412
            if (!EntityTags.anyMatches(ifMatch, etag, true)) {
                return Outcome.PRECONDITION_FAILED;
            }
        } else {
            long since = singleDate(request, "If-Unmodified-Since");
            // §13.1.4: false if the representation was modified after the date
            if (since != Long.MIN_VALUE && lastModified > since) {
                return Outcome.PRECONDITION_FAILED;
            }
        }
        String ifNoneMatch = joined(request, "If-None-Match");
        if (ifNoneMatch != null) {
            // §13.1.2: weak comparison; for GET/HEAD a false condition is 304
            if (EntityTags.anyMatches(ifNoneMatch, etag, false)) {
                return Outcome.NOT_MODIFIED;
            }
        } else {
            long since = singleDate(request, "If-Modified-Since");
            // §13.1.3: false ("not modified") if the last modification is not after the date
            if (since != Long.MIN_VALUE && lastModified <= since) {
                return Outcome.NOT_MODIFIED;
            }
        }
        return Outcome.PROCEED;
    }

    /**
     * Whether a {@code Range} may be honoured given {@code If-Range} (§13.1.5): true without the field; with an
     * entity tag, true when it strongly matches; with a date, true when it equals {@code lastModified} exactly and
     * that date is a strong validator (at least a second before {@code now}, §8.8.2.2).
     */
    static boolean ifRangeHolds(Headers request, String etag, long lastModified, long now) {
        List<String> values = request.get("If-Range");
        if (values == null || values.isEmpty()) {
            return true;
        }
        if (values.size() > 1) {
            return false;
        }
        String v = values.get(0).strip();
        if (v.startsWith("\"") || v.startsWith("W/")) {
            return !v.startsWith("W/") && EntityTags.anyMatches(v, etag, true) && !v.contains(",");
        }
        long date = HttpDates.parse(v);
        return date != Long.MIN_VALUE && date == lastModified && lastModified < now;
    }

    private static String joined(Headers request, String name) {
        List<String> values = request.get(name);
        return values == null || values.isEmpty() ? null : String.join(",", values);
    }

    /** §13.1.3/§13.1.4: a date field with more than one member, or not a valid date, is ignored. */
    private static long singleDate(Headers request, String name) {
        List<String> values = request.get(name);
        if (values == null || values.size() != 1) {
            return Long.MIN_VALUE;
        }
        return HttpDates.parse(values.get(0));
    }
}
