package dev.weft.servlet.async;

/**
 * The request's driver, as the async state machine sees it: runs a step the machine decided on (a dispatch, an
 * error dispatch, the completion) and whatever follows it, on the calling thread — a container thread the
 * machine started, or the timeout's thread.
 */
public interface AsyncDriver {

    /** Runs {@code action} and the steps after it. */
    void run(AsyncCycle.Action action);
}
