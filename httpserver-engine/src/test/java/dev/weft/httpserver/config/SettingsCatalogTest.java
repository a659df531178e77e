package dev.weft.httpserver.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.httpserver.testing.ConfigurationReference;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The settings catalog covers every configuration field, and the system properties and the reference follow it. */
class SettingsCatalogTest {

    static List<Setting<?>> settings() {
        return Settings.all();
    }

    @Test
    void everyConfigurationFieldIsInTheCatalogOnceAndNothingElse() {
        List<String> fields = new ArrayList<>();
        fields.addAll(components(ServerConfig.class, ""));
        fields.addAll(components(AccessLogConfig.class, "accessLog."));
        fields.addAll(components(ThreadsConfig.class, "threads."));
        fields.addAll(components(Http2Config.class, "http2."));
        fields.addAll(components(WebSocketConfig.class, "webSocket."));
        fields.addAll(components(ForwardedConfig.class, "forwarded."));
        List<String> names = Settings.all().stream().map(Setting::name).toList();
        assertEquals(names.size(), Set.copyOf(names).size(), "no setting twice: " + names);
        assertEquals(Set.copyOf(fields), Set.copyOf(names));
    }

    @Test
    void systemPropertiesAreDistinct() {
        List<String> properties = Settings.all().stream().map(Setting::systemProperty).toList();
        assertEquals(properties.size(), Set.copyOf(properties).size(), properties.toString());
    }

    @ParameterizedTest
    @MethodSource("settings")
    void theDefaultConfigurationHasTheCatalogDefault(Setting<?> setting) {
        assertEquals(setting.defaultValue(), setting.read(ServerConfig.defaults()));
    }

    @ParameterizedTest
    @MethodSource("settings")
    void eachSettingIsReadFromItsSystemPropertyIntoItsOwnField(Setting<?> setting) {
        Object other = otherValue(setting);
        Properties p = new Properties();
        p.setProperty(setting.systemProperty(), text(other));

        ServerConfig config = SystemPropertyConfig.from(p);

        assertEquals(other, setting.read(config));
        for (Setting<?> rest : Settings.all()) {
            if (rest != setting) {
                assertEquals(rest.defaultValue(), rest.read(config), rest.name());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("settings")
    void aValueBelowTheBoundsIsRefusedNamingTheProperty(Setting<?> setting) {
        Object below = belowBounds(setting);
        if (below == null) {
            return; // a switch or text: every value of its type is within bounds
        }
        Properties p = new Properties();
        p.setProperty(setting.systemProperty(), text(below));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SystemPropertyConfig.from(p));
        assertTrue(e.getMessage().contains(setting.systemProperty()), e.getMessage());
        assertTrue(e.getMessage().contains(setting.field() + " must be " + setting.bounds()), e.getMessage());
    }

    @Test
    void theConfigurationReferenceListsEverySettingWithItsPropertyAndDefault() throws IOException {
        Map<String, List<String>> rows = ConfigurationReference.settingsRows();
        assertEquals(Settings.all().stream().map(Setting::name).toList(), List.copyOf(rows.keySet()),
                "the settings table of " + ConfigurationReference.PAGE + ", in the catalog's order");
        for (Setting<?> setting : Settings.all()) {
            List<String> row = rows.get(setting.name());
            assertTrue(row.get(1).startsWith("`" + setting.systemProperty() + "`"),
                    setting.name() + ": system property column " + row.get(1));
            assertTrue(row.get(3).startsWith(setting.defaultText()),
                    setting.name() + ": default column '" + row.get(3) + "' should start with '"
                            + setting.defaultText() + "'");
        }
    }

    private static List<String> components(Class<? extends Record> type, String prefix) {
        Set<String> nested = Set.of("accessLog", "threads", "http2", "webSocket", "forwarded");
        return Arrays.stream(type.getRecordComponents()).map(RecordComponent::getName)
                .filter(n -> !nested.contains(n)).map(n -> prefix + n).collect(Collectors.toList());
    }

    /** A valid value other than the default. */
    private static Object otherValue(Setting<?> s) {
        Object d = s.defaultValue();
        return switch (d) {
            case null -> "/other";
            case Integer i -> i + 1;
            case Long l -> l == Long.MAX_VALUE ? l - 1 : l + 1;
            case Double x -> x / 2;
            case Boolean b -> !b;
            case Duration t -> t.plusSeconds(1);
            case String t when s.name().equals("forwarded.trustedProxies") -> "192.0.2.1";
            case String t -> t + "-other";
            default -> throw new AssertionError(d);
        };
    }

    /** A value just below the lower bound, or null when every value is allowed. */
    private static Object belowBounds(Setting<?> s) {
        return switch (s.kind()) {
            case SIZE, COUNT, RATE -> {
                long below = s.bounds().lowest() - 1;
                yield s.type() == Integer.class ? (Object) (int) below : (Object) below;
            }
            case FRACTION -> 0.0;
            case DURATION -> s.bounds().toString().startsWith("zero") ? Duration.ofMillis(-1) : Duration.ZERO;
            case SWITCH, TEXT -> null;
        };
    }

    private static String text(Object value) {
        return value instanceof Duration d ? d.toString() : String.valueOf(value);
    }
}
