package dev.weft.httpserver.core;

import com.sun.net.httpserver.Headers;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Response headers keep their own map but must accept, refuse, normalise and look up exactly as the JDK's. */
class ResponseHeadersTest {

    private static final List<String> NAMES = Arrays.asList("Content-Type", "content-type", "Content-type",
            "CONTENT-TYPE", "X-Custom-Field", "x", "", "Bad\rName", "Bad\nName", "Bad\r\n Name", "Caf\u00e9",
            "\u0141ódź", "Set-Cookie", null);
    private static final List<String> VALUES = Arrays.asList("text/plain", "", "a\r\n b", "a\r\n\tb", "a\r\nb",
            "a\rb", "a\nb", "a\r", "a\r\n", "\u00ff", "\u0100", "caf\u00e9", null);

    /** What an operation did: the exception's class, or the headers' contents afterwards. */
    private static String outcome(Headers headers, Consumer<Headers> operation) {
        try {
            operation.accept(headers);
            return headers.entrySet().toString() + " size " + headers.size();
        } catch (RuntimeException e) {
            return e.getClass().getName();
        }
    }

    private static void assertSameAsJdk(String what, Consumer<Headers> operation) {
        Headers jdk = new Headers();
        jdk.add("Accept-Ranges", "bytes");
        Headers ours = new ResponseHeaders();
        ours.add("Accept-Ranges", "bytes");
        assertEquals(outcome(jdk, operation), outcome(ours, operation), what);
    }

    @Test
    void setAddAndPutAcceptAndRefuseAsTheJdk() {
        for (String name : NAMES) {
            for (String value : VALUES) {
                String what = "name " + name + ", value " + value;
                assertSameAsJdk("set " + what, h -> h.set(name, value));
                assertSameAsJdk("add " + what, h -> {
                    h.add(name, value);
                    h.add(name, value);
                });
                List<String> values = new ArrayList<>();
                values.add("first");
                values.add(value);
                assertSameAsJdk("put " + what, h -> h.put(name, values));
            }
            assertSameAsJdk("put null list, name " + name, h -> h.put(name, null));
        }
    }

    @Test
    void lookupsAndRemovalsNormaliseAsTheJdk() {
        for (String name : NAMES) {
            assertSameAsJdk("get " + name, h -> {
                h.set("Content-Type", "text/html");
                h.set("X-custom-field", "1");
                if (h.get(name) != null) {
                    h.set("Found", h.getFirst(name) + " " + h.containsKey(name));
                }
            });
            assertSameAsJdk("remove " + name, h -> {
                h.set("Content-type", "text/html");
                h.remove(name);
            });
        }
    }

    @Test
    void valueListsChangeInPlaceAndReplaceAllChecksAsTheJdk() {
        assertSameAsJdk("add to a list", h -> {
            h.set("Vary", "Accept");
            h.get("vary").add("Origin");
        });
        for (String value : VALUES) {
            assertSameAsJdk("replaceAll with " + value, h -> h.replaceAll((k, v) -> {
                List<String> values = new ArrayList<>();
                values.add(value);
                return values;
            }));
        }
        assertSameAsJdk("replaceAll with null", h -> h.replaceAll((k, v) -> null));
        assertSameAsJdk("entry set removal", h -> {
            h.set("X-a", "1");
            h.entrySet().removeIf(e -> e.getKey().equals("Accept-ranges"));
        });
    }
}
