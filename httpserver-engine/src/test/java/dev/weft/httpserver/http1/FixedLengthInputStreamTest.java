package dev.weft.httpserver.http1;

import dev.weft.httpserver.config.ServerConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A Content-Length body: exact length, and a drain that never discards more than it is allowed to. */
class FixedLengthInputStreamTest {

    /** A drain deadline no test reaches. */
    private static final long FAR_DEADLINE = System.nanoTime() + java.util.concurrent.TimeUnit.HOURS.toNanos(1);

    private static FixedLengthInputStream body(ByteFeed feed, int length) {
        var in = feed.input("x".repeat(length + 10), ServerConfig.defaults());
        return new FixedLengthInputStream(in, length, 10_000, null);
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void readsExactlyTheDeclaredLength(ByteFeed feed) throws IOException {
        assertEquals(5000, body(feed, 5000).readAllBytes().length);
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void drainOfMoreThanTheLimitFails(ByteFeed feed) {
        assertFalse(body(feed, 5000).drain(100, FAR_DEADLINE));
        assertFalse(body(feed, 5000).drain(0, FAR_DEADLINE));
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void drainOfExactlyTheLimitSucceeds(ByteFeed feed) {
        FixedLengthInputStream b = body(feed, 5000);
        assertTrue(b.drain(5000, FAR_DEADLINE));
        assertTrue(b.isComplete());
        assertFalse(body(feed, 5000).drain(4999, FAR_DEADLINE));
    }
}
