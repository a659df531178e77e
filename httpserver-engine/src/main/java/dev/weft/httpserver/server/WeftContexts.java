package dev.weft.httpserver.server;

import com.sun.net.httpserver.HttpContext;

/** Per-context options of Weft servers beyond the JDK API; see {@link dev.weft.httpserver.Weft#runInline}. */
public final class WeftContexts {

    private WeftContexts() {
    }

    /**
     * See {@link dev.weft.httpserver.Weft#runInline}.
     *
     * @throws IllegalArgumentException if {@code context} is not a Weft server's
     */
    public static void runInline(HttpContext context) {
        if (!(context instanceof WeftHttpContext c)) {
            throw new IllegalArgumentException("not a Weft context: " + context);
        }
        c.runInline();
    }
}
