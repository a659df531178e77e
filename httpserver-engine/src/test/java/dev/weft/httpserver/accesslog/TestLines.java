package dev.weft.httpserver.accesslog;

/** Lines for tests, as a connection's batch would hand them over. */
final class TestLines {

    private TestLines() {
    }

    /** {@code text} as one hand-over, a line each. */
    static Lines of(String... text) {
        LineBuffer buffer = new LineBuffer(64);
        for (String line : text) {
            buffer.appendAscii(line);
            buffer.endLine();
        }
        return buffer.take();
    }
}
