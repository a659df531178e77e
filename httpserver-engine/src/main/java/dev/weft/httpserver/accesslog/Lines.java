package dev.weft.httpserver.accesslog;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Formatted access log lines on their way to the {@link Destination}: {@code bytes[0, length)} holds {@code count}
 * ASCII lines, each ended by {@code \n}. The array belongs to the writer once handed over.
 */
record Lines(byte[] bytes, int length, int count) {

    /** The lines as text, without their line ends. */
    List<String> text() {
        List<String> text = new ArrayList<>(count);
        int start = 0;
        for (int i = 0; i < length; i++) {
            if (bytes[i] == '\n') {
                text.add(new String(bytes, start, i - start, StandardCharsets.ISO_8859_1));
                start = i + 1;
            }
        }
        return text;
    }
}
