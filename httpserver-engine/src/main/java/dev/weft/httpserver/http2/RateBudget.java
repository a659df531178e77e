package dev.weft.httpserver.http2;

/**
 * A token bucket guarding one connection against floods: an average of {@code perSecond} events with
 * bursts of twice that. Used by the connection's reader thread only.
 */
final class RateBudget {

    private final double tokensPerNano;
    private final double capacity;
    private double tokens;
    private long last = System.nanoTime();

    RateBudget(int perSecond) {
        this.capacity = 2.0 * perSecond;
        this.tokens = capacity;
        this.tokensPerNano = perSecond / 1e9;
    }

    /** Spends one token; false when the budget is exhausted. */
    boolean trySpend() {
        long now = System.nanoTime();
        tokens = Math.min(capacity, tokens + (now - last) * tokensPerNano);
        last = now;
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        return true;
    }
}
