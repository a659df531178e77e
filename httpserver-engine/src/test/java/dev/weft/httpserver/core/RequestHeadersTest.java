package dev.weft.httpserver.core;

import com.sun.net.httpserver.Headers;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Request headers keep their own map but must look up, compare and refuse changes exactly as the JDK's. */
class RequestHeadersTest {

    private static RequestHeaders sample() {
        RequestHeaders h = new RequestHeaders();
        h.append("Content-type", "text/plain");
        h.append("Accept", "a");
        h.append("Accept", "b");
        return h.freeze();
    }

    @Test
    void lookupsNormaliseKeysLikeTheJdk() {
        RequestHeaders h = sample();
        assertEquals("text/plain", h.getFirst("content-type"));
        assertEquals("text/plain", h.getFirst("CONTENT-TYPE"));
        assertEquals(List.of("a", "b"), h.get("accept"));
        assertTrue(h.containsKey("ACCEPT"));
        assertFalse(h.containsKey("host"));
        assertNull(h.getFirst("host"));
        assertThrows(IllegalArgumentException.class, () -> h.get("a\r\nb"));
    }

    @Test
    void equalsAndHashCodeMatchAJdkHeadersWithTheSameFields() {
        Headers jdk = new Headers();
        jdk.put("Content-type", List.of("text/plain"));
        jdk.put("Accept", List.of("a", "b"));
        assertEquals(jdk, sample());
        assertEquals(sample(), jdk);
        assertEquals(jdk.hashCode(), sample().hashCode());
        assertEquals(Map.copyOf(jdk), Map.copyOf(sample()));
    }

    @Test
    void frozenHeadersRefuseEveryChange() {
        RequestHeaders h = sample();
        assertThrows(UnsupportedOperationException.class, () -> h.add("X", "y"));
        assertThrows(UnsupportedOperationException.class, () -> h.set("X", "y"));
        assertThrows(UnsupportedOperationException.class, () -> h.put("X", List.of("y")));
        assertThrows(UnsupportedOperationException.class, () -> h.remove("Accept"));
        assertThrows(UnsupportedOperationException.class, h::clear);
        assertThrows(UnsupportedOperationException.class, () -> h.entrySet().clear());
        assertThrows(UnsupportedOperationException.class, () -> h.get("Accept").add("c"));
        assertThrows(UnsupportedOperationException.class, () -> h.putIfAbsent("X", List.of("y")));
        assertEquals(2, h.size());
    }

    @Test
    void keysAlreadyInFormAreNotCopied() {
        String key = "Content-type";
        assertSame(key, RequestHeaders.normalize(key));
        assertEquals("Content-type", RequestHeaders.normalize("content-TYPE"));
    }

    @Test
    void everySpellingOfACommonNameNormalisesAsTheJdkDoes() {
        for (String key : CommonFieldNames.KEY_FORMS) {
            assertEquals(jdkKey(key), key, "not in key form: " + key);
            StringBuilder capitalised = new StringBuilder(key);
            for (int i = 1; i < capitalised.length(); i++) {
                if (capitalised.charAt(i - 1) == '-') {
                    capitalised.setCharAt(i, Character.toUpperCase(capitalised.charAt(i)));
                }
            }
            for (String spelling : List.of(key.toLowerCase(java.util.Locale.ROOT), capitalised.toString(),
                    key.toUpperCase(java.util.Locale.ROOT), key)) {
                assertEquals(jdkKey(spelling), RequestHeaders.normalize(spelling), spelling);
            }
            String lower = key.toLowerCase(java.util.Locale.ROOT);
            assertSame(key, RequestHeaders.normalize(lower), "looked up, not built: " + lower);
            if (!capitalised.toString().equals(key)) {
                assertSame(key, RequestHeaders.normalize(capitalised.toString()),
                        "looked up, not built: " + capitalised);
            }
        }
        assertEquals(jdkKey("x-custom-field"), RequestHeaders.normalize("x-custom-field"));
    }

    @Test
    void beforeFreezingPutAndAddRefuseWhatTheJdkRefuses() {
        List<String> names = java.util.Arrays.asList("X-ok", "content-length", "Bad\rName", "Bad\nName",
                "\u0141x", null);
        List<String> values = java.util.Arrays.asList("v", "a\r\n b", "a\r\nb", "a\nb", "\u0100", null);
        for (String name : names) {
            for (String value : values) {
                List<String> list = java.util.Arrays.asList("first", value);
                assertEquals(outcome(() -> new Headers().put(name, list)),
                        outcome(() -> new RequestHeaders().put(name, list)), "put " + name + ": " + value);
                assertEquals(outcome(() -> new Headers().add(name, value)),
                        outcome(() -> new RequestHeaders().add(name, value)), "add " + name + ": " + value);
            }
        }
    }

    private static String outcome(Runnable operation) {
        try {
            operation.run();
            return "accepted";
        } catch (RuntimeException e) {
            return e.getClass().getName();
        }
    }

    /** The key the JDK's own {@link Headers} files {@code name} under. */
    private static String jdkKey(String name) {
        Headers jdk = new Headers();
        jdk.add(name, "v");
        return jdk.keySet().iterator().next();
    }
}
