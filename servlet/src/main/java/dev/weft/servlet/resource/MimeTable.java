package dev.weft.servlet.resource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A context's extension-to-media-type table ({@code ServletContext.getMimeType}): exactly the entries it was
 * given, or the container's defaults. An extension is looked up as given, then lower-cased. Immutable.
 */
public final class MimeTable {

    private static final Map<String, String> DEFAULTS = loadDefaults();

    private final Map<String, String> byExtension;

    private MimeTable(Map<String, String> byExtension) {
        this.byExtension = Collections.unmodifiableMap(new LinkedHashMap<>(byExtension));
    }

    /** A table of exactly {@code mappings} (extension without dot → media type). */
    public static MimeTable of(Map<String, String> mappings) {
        return new MimeTable(mappings);
    }

    /** The container's default table (common web media types). */
    public static Map<String, String> defaults() {
        return DEFAULTS;
    }

    /** The media type of a file name or path, or null when its extension is not in the table. */
    public String typeOf(String file) {
        if (file == null) {
            return null;
        }
        int slash = file.lastIndexOf('/');
        int dot = file.lastIndexOf('.');
        if (dot <= slash || dot == file.length() - 1) {
            return null;
        }
        String ext = file.substring(dot + 1);
        String type = byExtension.get(ext);
        return type != null ? type : byExtension.get(ext.toLowerCase(Locale.ROOT));
    }

    /** Every entry, in the order given. */
    public Map<String, String> asMap() {
        return byExtension;
    }

    private static Map<String, String> loadDefaults() {
        Properties p = new Properties();
        try (InputStream in = MimeTable.class.getResourceAsStream("mime-types.properties")) {
            if (in == null) {
                throw new IllegalStateException("mime-types.properties missing from the servlet module");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> m = new TreeMap<>();
        p.forEach((k, v) -> m.put((String) k, (String) v));
        return Collections.unmodifiableMap(m);
    }
}
