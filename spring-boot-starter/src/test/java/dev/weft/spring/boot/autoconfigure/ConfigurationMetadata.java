package dev.weft.spring.boot.autoconfigure;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.Map;

/** The configuration metadata generated for the class path, as IDEs read it. */
final class ConfigurationMetadata {

    private ConfigurationMetadata() {
    }

    /** Every property of every {@code META-INF/spring-configuration-metadata.json}, by name. */
    static Map<String, JsonNode> properties() throws IOException {
        Map<String, JsonNode> properties = new HashMap<>();
        JsonMapper json = JsonMapper.builder().build();
        Enumeration<URL> files = ConfigurationMetadata.class.getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json");
        for (URL file : Collections.list(files)) {
            try (InputStream in = file.openStream()) {
                json.readTree(in).path("properties").forEach(p -> properties.put(p.path("name").asString(), p));
            }
        }
        return properties;
    }
}
