package dev.weft.servlet.dispatch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** Reason phrases of the error status codes (RFC 9110 §15), for the container's own error pages. */
final class Reasons {

    private static final Properties PHRASES = load();

    private Reasons() {
    }

    /** The phrase of {@code status}, or a generic one for a code RFC 9110 does not name. */
    static String phrase(int status) {
        String p = PHRASES.getProperty(Integer.toString(status));
        if (p != null) {
            return p;
        }
        return status >= 500 ? "Server Error" : status >= 400 ? "Client Error" : "";
    }

    private static Properties load() {
        Properties p = new Properties();
        try (InputStream in = Reasons.class.getResourceAsStream("reason-phrases.properties")) {
            if (in == null) {
                throw new IllegalStateException("reason-phrases.properties missing from the servlet module");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
