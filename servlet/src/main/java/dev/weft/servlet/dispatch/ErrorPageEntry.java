package dev.weft.servlet.dispatch;

/**
 * An error page as the dispatch layer keeps it: for a status code, for an exception type, or (neither) the
 * default page. Immutable.
 *
 * @param status        the status code, or 0
 * @param exceptionType the exception type, or null
 * @param location      the context-relative path of the page, starting with {@code /}
 */
public record ErrorPageEntry(int status, Class<? extends Throwable> exceptionType, String location) {
}
