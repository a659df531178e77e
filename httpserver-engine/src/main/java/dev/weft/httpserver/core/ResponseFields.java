package dev.weft.httpserver.core;

import com.sun.net.httpserver.Headers;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** Checks the response fields a handler set, for every protocol, before anything is sent. */
public final class ResponseFields {

    private ResponseFields() {
    }

    /** {@link #validate} result bit: the handler set a {@code Connection} field containing {@code close}. */
    public static final int CONNECTION_CLOSE = 1;
    /** {@link #validate} result bit: the handler set a {@code Content-Length} field. */
    public static final int CONTENT_LENGTH_SET = 2;
    /** {@link #validate} result bit: the handler set a {@code Date} field. */
    public static final int DATE_SET = 4;
    /** {@link #validate} result bit: the handler set a {@code Server} field. */
    public static final int SERVER_SET = 8;

    /**
     * Checks names are tokens and values hold no CR, LF or other control bytes (no response splitting),
     * and reports the framing-related fields the handler set, in the same pass.
     *
     * @throws NullPointerException for a {@code null} value, as the JDK's server throws
     * @throws IOException          for an invalid name or value
     *
     * @return a combination of {@link #CONNECTION_CLOSE}, {@link #CONTENT_LENGTH_SET}, {@link #DATE_SET} and
     *         {@link #SERVER_SET}
     */
    public static int validate(Headers headers) throws IOException {
        int flags = 0;
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            String name = e.getKey();
            if (name.isEmpty()) {
                throw new IOException("empty response header name");
            }
            for (int i = 0; i < name.length(); i++) {
                char c = name.charAt(i);
                if (c > 0x7f || !CharClasses.isToken((byte) c)) {
                    throw new IOException("invalid response header name: " + name);
                }
            }
            boolean connection = name.equals("Connection");
            switch (name) {
                case "Content-length" -> flags |= CONTENT_LENGTH_SET;
                case "Date" -> flags |= DATE_SET;
                case "Server" -> flags |= SERVER_SET;
                default -> {
                }
            }
            for (String v : e.getValue()) {
                if (v == null) {
                    // As the JDK's server: a programming error, not an I/O failure.
                    throw new NullPointerException("null value for response header " + name);
                }
                for (int i = 0; i < v.length(); i++) {
                    char c = v.charAt(i);
                    if (c > 0xff || !CharClasses.isFieldValue((byte) c)) {
                        throw new IOException("invalid character in response header " + name);
                    }
                }
                if (connection && hasCloseToken(v)) {
                    flags |= CONNECTION_CLOSE;
                }
            }
        }
        return flags;
    }

    private static boolean hasCloseToken(String value) {
        for (String part : value.split(",")) {
            if (part.strip().equalsIgnoreCase("close")) {
                return true;
            }
        }
        return false;
    }
}
