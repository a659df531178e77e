package dev.weft.micronaut.reference;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The files in which the {@code netty-reference} execution leaves what Micronaut's Netty server did, for the
 * default execution's Weft tests: plain properties, one file per recording.
 */
final class Recordings {

    private Recordings() {
    }

    static void save(Map<String, String> values, Path file, String comment) throws IOException {
        Properties properties = new Properties();
        properties.putAll(values);
        Files.createDirectories(file.getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            properties.store(out, comment);
        }
    }

    static Map<String, String> load(Path file) throws IOException {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        }
        Map<String, String> values = new TreeMap<>();
        for (String key : properties.stringPropertyNames()) {
            values.put(key, properties.getProperty(key));
        }
        return values;
    }
}
