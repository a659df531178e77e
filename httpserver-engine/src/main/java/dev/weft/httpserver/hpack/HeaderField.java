package dev.weft.httpserver.hpack;

import java.util.Objects;

/**
 * One header field. Names and values are octet strings; each {@code char} holds one octet (ISO-8859-1).
 *
 * @param name      the field name
 * @param value     the field value
 * @param sensitive true if the field must never be indexed (RFC 7541 §6.2.3)
 */
public record HeaderField(String name, String value, boolean sensitive) {

    /** Per-entry overhead in the dynamic table (RFC 7541 §4.1). */
    public static final int ENTRY_OVERHEAD = 32;

    public HeaderField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
    }

    public HeaderField(String name, String value) {
        this(name, value, false);
    }

    /** The size of this field as defined by RFC 7541 §4.1: name octets + value octets + 32. */
    public int size() {
        return name.length() + value.length() + ENTRY_OVERHEAD;
    }
}
