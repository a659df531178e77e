package dev.weft.httpserver.http2;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The reading of h2spec's JUnit report and summary line that {@link H2specConformanceTest} relies on. */
class H2specReportTest {

    /** Shaped like h2spec 2.2.1's output, including the unescaped failure text it writes ({@code innerxml}). */
    private static final String REPORT = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites>
              <testsuite name="1. Starting HTTP/2" package="generic/1" id="1" tests="1" skipped="0" failures="0" errors="1">
                <testcase package="generic/1" classname="Sends a client connection preface" time="0.0008">
                  <error>SETTINGS Frame (flags:0x00)
            Error: unexpected EOF</error>
                </testcase>
              </testsuite>
              <testsuite name="6.5.3. Settings Synchronization" package="http2/6.5.3" id="6.5.3" tests="3" skipped="1" failures="1" errors="0">
                <testcase package="http2/6.5.3" classname="Sends multiple values of SETTINGS_INITIAL_WINDOW_SIZE" time="0.0010"></testcase>
                <testcase package="http2/6.5.3" classname="Sends a SETTINGS frame without ACK flag &amp; checks &#34;ACK&#34;" time="0.0012">
                  <failure>Expect:
            SETTINGS Frame (length:0, flags:0x01, stream_id:0)
            Actual:
            DATA Frame (length:5, flags:0x00, stream_id:1) <unexpected></failure>
                </testcase>
                <testcase package="http2/6.5.3" classname="A skipped case" time="0.0000">
                  <skipped></skipped>
                </testcase>
              </testsuite>
            </testsuites>
            """;

    @Test
    void casesAreNumberedWithinTheirGroupAndCarryTheirOutcome() {
        List<H2specConformanceTest.Case> cases = H2specConformanceTest.parseReport(REPORT);
        assertEquals(4, cases.size());

        H2specConformanceTest.Case preface = cases.get(0);
        assertEquals("generic/1/1", preface.id());
        assertEquals("error", preface.outcome());
        assertEquals(List.of("expected: SETTINGS Frame (flags:0x00)", "actual:   Error: unexpected EOF"),
                preface.detailLines());

        assertEquals("http2/6.5.3/1", cases.get(1).id());
        assertEquals("passed", cases.get(1).outcome());

        H2specConformanceTest.Case failed = cases.get(2);
        assertEquals("http2/6.5.3/2", failed.id());
        assertEquals("Sends a SETTINGS frame without ACK flag & checks \"ACK\"", failed.description());
        assertEquals("failed", failed.outcome());
        assertEquals(List.of("expected: SETTINGS Frame (length:0, flags:0x01, stream_id:0)",
                "actual:   DATA Frame (length:5, flags:0x00, stream_id:1) <unexpected>"), failed.detailLines());

        assertEquals("http2/6.5.3/3", cases.get(3).id());
        assertEquals("skipped", cases.get(3).outcome());
    }

    @Test
    void summaryLineIsReadThroughColourCodes() {
        H2specConformanceTest.Summary s = H2specConformanceTest.Summary.of(
                "...\nFinished in 0.3345 seconds\n\u001b[1m145 tests, 140 passed, 1 skipped, 4 failed\u001b[0m\n");
        assertEquals(145, s.total());
        assertEquals(140, s.passed());
        assertEquals(1, s.skipped());
        assertEquals(4, s.failed());
        assertNull(H2specConformanceTest.Summary.of("Error: dial tcp 127.0.0.1:1: connect: connection refused"));
    }
}
