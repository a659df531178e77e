package dev.weft.httpserver.files;

import com.sun.net.httpserver.Headers;
import dev.weft.httpserver.files.Preconditions.Outcome;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PreconditionsTest {

    private static final String TAG = "\"abc-1\"";
    private static final long MODIFIED = 784_111_777L; // Sun, 06 Nov 1994 08:49:37 GMT

    private static Outcome eval(String... fields) {
        Headers h = new Headers();
        for (int i = 0; i < fields.length; i += 2) {
            h.add(fields[i], fields[i + 1]);
        }
        return Preconditions.evaluate(h, TAG, MODIFIED);
    }

    @Test
    void httpDatesParseInAllThreeForms() {
        assertEquals(MODIFIED, HttpDates.parse("Sun, 06 Nov 1994 08:49:37 GMT"));
        assertEquals(MODIFIED, HttpDates.parse("Sunday, 06-Nov-94 08:49:37 GMT"));
        assertEquals(MODIFIED, HttpDates.parse("Sun Nov  6 08:49:37 1994"));
        assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", HttpDates.format(MODIFIED));
        assertEquals(Long.MIN_VALUE, HttpDates.parse("Mon, 06 Nov 1994 08:49:37 GMT"));
        assertEquals(Long.MIN_VALUE, HttpDates.parse("yesterday"));
    }

    @Test
    void ifNoneMatchUsesWeakComparisonAndWinsOverIfModifiedSince() {
        assertEquals(Outcome.NOT_MODIFIED, eval("If-None-Match", TAG));
        assertEquals(Outcome.NOT_MODIFIED, eval("If-None-Match", "\"x\", W/" + TAG));
        assertEquals(Outcome.NOT_MODIFIED, eval("If-None-Match", "*"));
        assertEquals(Outcome.PROCEED, eval("If-None-Match", "\"other\"",
                "If-Modified-Since", "Sun, 06 Nov 1994 08:49:37 GMT"));
    }

    @Test
    void ifModifiedSinceComparesDatesAndIgnoresInvalidOnes() {
        assertEquals(Outcome.NOT_MODIFIED, eval("If-Modified-Since", "Sun, 06 Nov 1994 08:49:37 GMT"));
        assertEquals(Outcome.PROCEED, eval("If-Modified-Since", "Sun, 06 Nov 1994 08:49:36 GMT"));
        assertEquals(Outcome.PROCEED, eval("If-Modified-Since", "not a date"));
    }

    @Test
    void ifMatchUsesStrongComparisonAndIfUnmodifiedSinceAppliesWithoutIt() {
        assertEquals(Outcome.PROCEED, eval("If-Match", TAG));
        assertEquals(Outcome.PROCEED, eval("If-Match", "*"));
        assertEquals(Outcome.PRECONDITION_FAILED, eval("If-Match", "W/" + TAG));
        assertEquals(Outcome.PRECONDITION_FAILED, eval("If-Match", "\"nope\""));
        assertEquals(Outcome.PRECONDITION_FAILED, eval("If-Match", "garbage"));
        assertEquals(Outcome.PRECONDITION_FAILED, eval("If-Unmodified-Since", "Sun, 06 Nov 1994 08:49:36 GMT"));
        assertEquals(Outcome.PROCEED, eval("If-Unmodified-Since", "Sun, 06 Nov 1994 08:49:37 GMT"));
        assertEquals(Outcome.PROCEED, eval("If-Match", TAG, "If-Unmodified-Since", "Sun, 06 Nov 1994 08:49:36 GMT"));
    }

    @Test
    void ifRangeNeedsAStrongMatchOrTheExactDate() {
        Headers h = new Headers();
        assertTrue(Preconditions.ifRangeHolds(h, TAG, MODIFIED, MODIFIED + 10));
        h.set("If-Range", TAG);
        assertTrue(Preconditions.ifRangeHolds(h, TAG, MODIFIED, MODIFIED + 10));
        h.set("If-Range", "W/" + TAG);
        assertFalse(Preconditions.ifRangeHolds(h, TAG, MODIFIED, MODIFIED + 10));
        h.set("If-Range", "Sun, 06 Nov 1994 08:49:37 GMT");
        assertTrue(Preconditions.ifRangeHolds(h, TAG, MODIFIED, MODIFIED + 10));
        assertFalse(Preconditions.ifRangeHolds(h, TAG, MODIFIED, MODIFIED), "modified within the current second");
        h.set("If-Range", "Sun, 06 Nov 1994 08:49:38 GMT");
        assertFalse(Preconditions.ifRangeHolds(h, TAG, MODIFIED, MODIFIED + 10));
    }
}
