package dev.weft.httpserver.core;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TargetPathsTest {

    @Test
    void doubleSlashTargetIsAPathWithoutAuthorityThatSurvivesReparsing() throws URISyntaxException {
        URI uri = TargetPaths.originUri("//evil.example/actuator/health?x=%41");

        assertNull(uri.getRawAuthority());
        assertNull(uri.getHost());
        assertEquals("//evil.example/actuator/health", uri.getRawPath());
        assertEquals("x=%41", uri.getRawQuery());
        URI again = new URI(uri.toString());
        assertNull(again.getRawAuthority());
        assertEquals("//evil.example/actuator/health", again.getRawPath());
    }

    @Test
    void bareDoubleSlashIsThePathDoubleSlash() throws URISyntaxException {
        assertEquals("//", TargetPaths.originUri("//").getRawPath());
        assertEquals("//", TargetPaths.originPath("//"));
    }

    @ParameterizedTest
    @ValueSource(strings = { "/", "/a%20b?q", "//x%2Fy/z", "/a;b=%3B/c", "//", "/%C3%A9t%C3%A9", "///a//b/?//" })
    void routingPathIsTheRequestUrisDecodedPath(String target) throws URISyntaxException {
        assertEquals(TargetPaths.originUri(target).getPath(), TargetPaths.originPath(target));
        assertEquals(target.split("\\?", 2)[0], TargetPaths.originUri(target).getRawPath());
    }

    @ParameterizedTest
    @ValueSource(strings = { "/..", "/.", "/a/..", "/a/./b", "/%2e%2E/b", "/a/.%2e", "/a/..;p", "/a%2F.%2Fb",
            "/a%5c..%5Cb", "/a/..?q", "http://h/a/../b" })
    void dotSegmentsAreFound(String target) {
        assertTrue(TargetPaths.hasDotSegment(target));
        assertTrue(TargetPaths.hasDotSegment(bytes(target), 0, target.length()));
    }

    @ParameterizedTest
    @ValueSource(strings = { "/", "/a/...", "/a/.b", "/a/b.", "/a/..b", "/a;..", "/a/b;x/..c", "/a?/../", "/a?x=.",
            "/%2e%2e%2e", "/a%3B..", "//", "" })
    void otherNamesAreNotDotSegments(String target) {
        assertFalse(TargetPaths.hasDotSegment(target));
        assertFalse(TargetPaths.hasDotSegment(bytes(target), 0, target.length()));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
