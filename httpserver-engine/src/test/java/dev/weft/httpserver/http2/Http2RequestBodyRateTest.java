package dev.weft.httpserver.http2;

import dev.weft.httpserver.core.ClientClosedException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The minimum request rate counts only the time a read waits for the client: a handler busy elsewhere is not the
 * client's fault. Time is the subject: the handler's busy spell is real time, and the bounds are generous.
 */
@Timeout(30)
class Http2RequestBodyRateTest {

    private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

    /** Counts what the body reports to its stream. */
    private static final class Stream implements Http2RequestBody.Owner {
        int tooSlow;
        int timedOut;

        @Override
        public void beforeFirstRead() {
        }

        @Override
        public void consumed(int n) {
        }

        @Override
        public void readTimedOut() {
            timedOut++;
        }

        @Override
        public void readTooSlow() {
            tooSlow++;
        }
    }

    @Test
    void onlyTheTimeAReadWaitsCountsAgainstTheMinimumRate() throws Exception {
        Stream stream = new Stream();
        Http2RequestBody body = new Http2RequestBody(stream, TimeUnit.SECONDS.toNanos(30), false,
                new WaitAllowance(240, GRACE_NANOS));

        // A pace: the handler is busy for twice the grace period before it reads; no read waits meanwhile.
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(2 * GRACE_NANOS));
        body.offer(new byte[] {42});
        byte[] buf = new byte[16];
        assertEquals(1, body.read(buf), "the client is not charged for the handler's busy spell");
        assertEquals(0, stream.tooSlow);

        // Now a read waits for more: the grace period plus 1/240 s for the byte received, then it gives up.
        long start = System.nanoTime();
        assertThrows(ClientClosedException.class, () -> body.read(buf));
        long waited = System.nanoTime() - start;
        assertTrue(waited >= GRACE_NANOS * 9 / 10, "gave up after " + waited / 1_000_000 + " ms");
        assertEquals(1, stream.tooSlow);
        assertEquals(0, stream.timedOut);
        assertThrows(ClientClosedException.class, () -> body.read(buf), "the body stays failed");
    }

    @Test
    void withoutAMinimumRateOnlyTheReadTimeoutApplies() {
        Stream stream = new Stream();
        Http2RequestBody body = new Http2RequestBody(stream, TimeUnit.MILLISECONDS.toNanos(200), false, null);
        assertThrows(java.net.SocketTimeoutException.class, () -> body.read(new byte[8]));
        assertEquals(1, stream.timedOut);
        assertEquals(0, stream.tooSlow);
    }
}
