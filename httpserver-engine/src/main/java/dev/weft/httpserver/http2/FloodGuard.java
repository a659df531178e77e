package dev.weft.httpserver.http2;

import dev.weft.httpserver.config.Http2Config;

/**
 * One connection's defences against frame floods: budgets for control frames and for stream resets (rapid
 * reset, CVE-2023-44487), and the cap on a header block's CONTINUATION frames (CVE-2024-27316). A client that
 * runs one dry gets ENHANCE_YOUR_CALM. Reader thread only.
 *
 * <p>The control budget pays for every frame a client can send without an effect it needs: SETTINGS after the
 * first, PING, PRIORITY, unknown types, empty DATA (unless it ends the request), HEADERS and CONTINUATION
 * fragments, DATA and HEADERS ignored on a stream we reset, and WINDOW_UPDATEs that return no credit for data we
 * sent ({@link SendFlowControl}). The reset budget pays for every RST_STREAM, of closed streams too, for the
 * refusals of new streams, and for our resets of streams the client made malformed.
 */
final class FloodGuard {

    /** The most CONTINUATION frames one header block may take. */
    static final int MAX_CONTINUATION_FRAMES = 64;

    private final RateBudget resetBudget;
    private final RateBudget controlBudget;

    FloodGuard(Http2Config settings) {
        this.resetBudget = new RateBudget(settings.maxResetsPerSecond());
        this.controlBudget = new RateBudget(settings.maxControlFramesPerSecond());
    }

    void spendControl() throws Http2ConnectionException {
        if (!controlBudget.trySpend()) {
            throw flood("too many control frames");
        }
    }

    void spendReset() throws Http2ConnectionException {
        if (!resetBudget.trySpend()) {
            throw flood("too many stream resets");
        }
    }

    static Http2ConnectionException flood(String message) {
        return new Http2ConnectionException(ErrorCode.ENHANCE_YOUR_CALM, message);
    }
}
