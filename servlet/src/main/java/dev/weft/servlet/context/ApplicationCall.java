package dev.weft.servlet.context;

/** A call into application code, run by {@link WeftServletContext#runAsApplication}. */
@FunctionalInterface
public interface ApplicationCall {

    /** Runs the application code. */
    void run() throws Exception;
}
