package dev.weft.spring.boot.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.weft.httpserver.config.Setting;
import dev.weft.httpserver.config.Settings;
import dev.weft.httpserver.testing.ConfigurationReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.unit.DataSize;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Every engine setting of the catalog has its Spring Boot property, with metadata and the engine's default, and
 * the configuration reference names it; no {@code weft.server.*} property exists that is not a setting.
 */
class EngineSettingsBindingTest {

    /** Settings bound to a property of Boot's own instead of {@code weft.server.<path>}. */
    private static final Map<String, String> BOOT_PROPERTIES = Map.of(
            "maxHeaderSize", "server.max-http-request-header-size",
            "serverHeader", "server.server-header",
            "http2.h2Enabled", "server.http2.enabled",
            "threads.virtual", "spring.threads.virtual.enabled",
            "statsPath", "weft.server.stats-page.path");

    /** Settings with no Spring property (a {@code WeftServerCustomizer} sets them). */
    private static final Set<String> UNBOUND = Set.of("maxChunkLineLength", "maxDrainSize");

    /** {@code weft.server.*} properties that are not engine settings themselves. */
    private static final Set<String> NOT_SETTINGS = Set.of("weft.server.stats-page.enabled");

    static String springProperty(Setting<?> setting) {
        return BOOT_PROPERTIES.getOrDefault(setting.name(), "weft.server." + EngineSettings.propertyPath(setting));
    }

    @Test
    void everyBoundSettingHasAPropertyWithMetadata() throws IOException {
        Map<String, JsonNode> metadata = ConfigurationMetadata.properties();
        for (Setting<?> setting : Settings.all()) {
            if (!UNBOUND.contains(setting.name())) {
                assertThat(metadata).as(setting.name()).containsKey(springProperty(setting));
            }
        }
    }

    @Test
    void everyWeftServerPropertyIsAnEngineSetting() throws IOException {
        Set<String> weftProperties = ConfigurationMetadata.properties().keySet().stream()
                .filter(name -> name.startsWith("weft.server.") && !NOT_SETTINGS.contains(name))
                .collect(Collectors.toCollection(TreeSet::new));
        Set<String> fromCatalog = Settings.all().stream()
                .filter(s -> !UNBOUND.contains(s.name()))
                .map(EngineSettingsBindingTest::springProperty)
                .filter(name -> name.startsWith("weft.server."))
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(weftProperties).isEqualTo(fromCatalog);
    }

    @Test
    void weftServerDefaultsAreTheEngineDefaults() throws IOException {
        Map<String, JsonNode> metadata = ConfigurationMetadata.properties();
        for (Setting<?> setting : Settings.all()) {
            String property = springProperty(setting);
            if (UNBOUND.contains(setting.name()) || !property.startsWith("weft.server.")) {
                continue;
            }
            if (setting == Settings.STATS_PATH) {
                // off by default in both: Spring says so with stats-page.enabled=false, path holds the page's path
                assertThat(metadata.get("weft.server.stats-page.enabled").path("defaultValue").asBoolean()).isFalse();
                continue;
            }
            JsonNode declared = metadata.get(property).path("defaultValue");
            assertThat(springDefault(setting, declared)).as(property).isEqualTo(engineDefault(setting));
        }
    }

    @Test
    void theConfigurationReferenceNamesEachSpringProperty() throws IOException {
        Map<String, String> springColumn = referenceSpringColumn();
        assertThat(springColumn.keySet()).containsExactlyInAnyOrderElementsOf(
                Settings.all().stream().map(Setting::name).toList());
        for (Setting<?> setting : Settings.all()) {
            String cell = springColumn.get(setting.name());
            if (UNBOUND.contains(setting.name())) {
                assertThat(cell).as(setting.name()).isEqualTo("—");
            } else {
                assertThat(cell).as(setting.name()).contains("`" + springProperty(setting) + "`");
            }
        }
    }

    /** The engine default as a Spring property holds it: sizes and rates as a {@link DataSize}. */
    private static Object engineDefault(Setting<?> setting) {
        Object value = setting.defaultValue();
        return switch (setting.kind()) {
            case SIZE, RATE -> ((Number) value).longValue() == Long.MAX_VALUE ? null
                    : DataSize.ofBytes(((Number) value).longValue());
            case COUNT -> ((Number) value).longValue();
            default -> value;
        };
    }

    private static Object springDefault(Setting<?> setting, JsonNode declared) {
        if (declared.isMissingNode() || declared.isNull()) {
            return null;
        }
        return switch (setting.kind()) {
            case SIZE, RATE -> DataSize.parse(declared.asString());
            case COUNT -> declared.asLong();
            case DURATION -> DurationStyle.detectAndParse(declared.asString());
            case FRACTION -> declared.asDouble();
            case SWITCH -> declared.asBoolean();
            case TEXT -> declared.asString();
        };
    }

    private static Map<String, String> referenceSpringColumn() throws IOException {
        Map<String, String> column = new LinkedHashMap<>();
        ConfigurationReference.settingsRows().forEach((name, cells) -> column.put(name, cells.get(2)));
        return column;
    }
}
