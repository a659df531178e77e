package dev.weft.httpserver.hpack;

import java.util.HashMap;
import java.util.Map;

/** The RFC 7541 Appendix A static table (indexes 1..61). */
public final class StaticTable {

    private static final HeaderField[] ENTRIES = {
            new HeaderField(":authority", ""),
            new HeaderField(":method", "GET"),
            new HeaderField(":method", "POST"),
            new HeaderField(":path", "/"),
            new HeaderField(":path", "/index.html"),
            new HeaderField(":scheme", "http"),
            new HeaderField(":scheme", "https"),
            new HeaderField(":status", "200"),
            new HeaderField(":status", "204"),
            new HeaderField(":status", "206"),
            new HeaderField(":status", "304"),
            new HeaderField(":status", "400"),
            new HeaderField(":status", "404"),
            new HeaderField(":status", "500"),
            new HeaderField("accept-charset", ""),
            new HeaderField("accept-encoding", "gzip, deflate"),
            new HeaderField("accept-language", ""),
            new HeaderField("accept-ranges", ""),
            new HeaderField("accept", ""),
            new HeaderField("access-control-allow-origin", ""),
            new HeaderField("age", ""),
            new HeaderField("allow", ""),
            new HeaderField("authorization", ""),
            new HeaderField("cache-control", ""),
            new HeaderField("content-disposition", ""),
            new HeaderField("content-encoding", ""),
            new HeaderField("content-language", ""),
            new HeaderField("content-length", ""),
            new HeaderField("content-location", ""),
            new HeaderField("content-range", ""),
            new HeaderField("content-type", ""),
            new HeaderField("cookie", ""),
            new HeaderField("date", ""),
            new HeaderField("etag", ""),
            new HeaderField("expect", ""),
            new HeaderField("expires", ""),
            new HeaderField("from", ""),
            new HeaderField("host", ""),
            new HeaderField("if-match", ""),
            new HeaderField("if-modified-since", ""),
            new HeaderField("if-none-match", ""),
            new HeaderField("if-range", ""),
            new HeaderField("if-unmodified-since", ""),
            new HeaderField("last-modified", ""),
            new HeaderField("link", ""),
            new HeaderField("location", ""),
            new HeaderField("max-forwards", ""),
            new HeaderField("proxy-authenticate", ""),
            new HeaderField("proxy-authorization", ""),
            new HeaderField("range", ""),
            new HeaderField("referer", ""),
            new HeaderField("refresh", ""),
            new HeaderField("retry-after", ""),
            new HeaderField("server", ""),
            new HeaderField("set-cookie", ""),
            new HeaderField("strict-transport-security", ""),
            new HeaderField("transfer-encoding", ""),
            new HeaderField("user-agent", ""),
            new HeaderField("vary", ""),
            new HeaderField("via", ""),
            new HeaderField("www-authenticate", ""),
    };

    /** Number of entries. */
    public static final int LENGTH = ENTRIES.length;

    private static final Map<String, Integer> BY_NAME = new HashMap<>();
    private static final Map<HeaderField, Integer> BY_NAME_VALUE = new HashMap<>();

    static {
        for (int i = ENTRIES.length; i >= 1; i--) {
            HeaderField f = ENTRIES[i - 1];
            BY_NAME.put(f.name(), i); // iterate backwards so the lowest index wins
            BY_NAME_VALUE.put(f, i);
        }
    }

    private StaticTable() {
    }

    /** The entry at a 1-based index. */
    public static HeaderField get(int index) {
        if (index < 1 || index > LENGTH) {
            throw new IndexOutOfBoundsException("static table index " + index);
        }
        return ENTRIES[index - 1];
    }

    /** The lowest index whose name matches, or -1. */
    public static int indexOf(String name) {
        Integer i = BY_NAME.get(name);
        return i == null ? -1 : i;
    }

    /** The index of the entry matching the field's name and value, or -1. */
    public static int indexOf(HeaderField field) {
        Integer i = BY_NAME_VALUE.get(field.sensitive() ? new HeaderField(field.name(), field.value()) : field);
        return i == null ? -1 : i;
    }

    /** The index of the entry matching both name and value, or -1. */
    public static int indexOf(String name, String value) {
        return indexOf(new HeaderField(name, value));
    }
}
