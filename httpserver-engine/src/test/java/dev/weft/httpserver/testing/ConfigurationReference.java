package dev.weft.httpserver.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The settings table of {@code docs/configuration.md}, as the tests that check it against the catalog read it. */
public final class ConfigurationReference {

    /** The reference page, from a module's directory. */
    public static final Path PAGE = Path.of("..", "docs", "configuration.md");

    private ConfigurationReference() {
    }

    /**
     * The rows between the {@code settings-table} markers, by their first cell without backticks, in order; each
     * row's cells stripped.
     *
     * @throws IllegalStateException if the markers are missing or out of order
     */
    public static Map<String, List<String>> settingsRows() throws IOException {
        List<String> lines = Files.readAllLines(PAGE);
        int begin = lines.indexOf("<!-- settings-table:begin -->");
        int end = lines.indexOf("<!-- settings-table:end -->");
        if (begin < 0 || begin >= end) {
            throw new IllegalStateException("no settings table markers in " + PAGE);
        }
        Map<String, List<String>> rows = new LinkedHashMap<>();
        for (String line : lines.subList(begin + 3, end)) { // after the marker, the header and the separator
            List<String> cells = Arrays.stream(line.substring(1, line.length() - 1).split("\\|"))
                    .map(String::strip).toList();
            rows.put(cells.get(0).replace("`", ""), cells);
        }
        return rows;
    }
}
