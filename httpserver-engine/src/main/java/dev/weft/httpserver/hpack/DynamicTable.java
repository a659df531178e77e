package dev.weft.httpserver.hpack;

/**
 * The RFC 7541 §2.3.2 dynamic table: a FIFO of header fields, newest first (index 1), bounded by a
 * maximum size in octets where each entry counts name + value + 32.
 */
public final class DynamicTable {

    private HeaderField[] ring = new HeaderField[16];
    private int head; // slot of the newest entry
    private int length;
    private int size;
    private int maxSize;

    public DynamicTable(int maxSize) {
        if (maxSize < 0) {
            throw new IllegalArgumentException("negative max size");
        }
        this.maxSize = maxSize;
    }

    /** Number of entries. */
    public int length() {
        return length;
    }

    /** Current size in octets (RFC 7541 §4.1). */
    public int size() {
        return size;
    }

    public int maxSize() {
        return maxSize;
    }

    /** The entry at a 1-based index, 1 being the most recently added. */
    public HeaderField get(int index) {
        if (index < 1 || index > length) {
            throw new IndexOutOfBoundsException("dynamic table index " + index);
        }
        return ring[(head - (index - 1) + ring.length) % ring.length];
    }

    /**
     * Adds an entry, evicting the oldest ones as needed. An entry larger than the maximum size empties
     * the table and is not added (RFC 7541 §4.4).
     */
    public void add(HeaderField field) {
        int fieldSize = field.size();
        if (fieldSize > maxSize) {
            clear();
            return;
        }
        evictTo(maxSize - fieldSize);
        if (length == ring.length) {
            grow();
        }
        head = (head + 1) % ring.length;
        ring[head] = field;
        length++;
        size += fieldSize;
    }

    /** Changes the maximum size, evicting entries until the table fits (RFC 7541 §4.3). */
    public void setMaxSize(int newMaxSize) {
        if (newMaxSize < 0) {
            throw new IllegalArgumentException("negative max size");
        }
        maxSize = newMaxSize;
        evictTo(newMaxSize);
    }

    /** 1-based index of the newest entry equal in name and value, or -1. */
    public int indexOf(String name, String value) {
        for (int i = 1; i <= length; i++) {
            HeaderField f = get(i);
            if (f.name().equals(name) && f.value().equals(value)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * 1-based index of the newest of the {@code limit} newest entries whose name and value are these very
     * {@code String} instances, or -1: a cheap first look for a field an encoder sends again and again.
     */
    public int indexOfSame(String name, String value, int limit) {
        int n = Math.min(limit, length);
        for (int i = 1; i <= n; i++) {
            HeaderField f = ring[(head - (i - 1) + ring.length) % ring.length];
            if (f.value() == value && f.name() == name) {
                return i;
            }
        }
        return -1;
    }

    /** 1-based index of the newest entry with this name, or -1. */
    public int indexOf(String name) {
        for (int i = 1; i <= length; i++) {
            if (get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    public void clear() {
        java.util.Arrays.fill(ring, null);
        head = 0;
        length = 0;
        size = 0;
    }

    private void evictTo(int target) {
        while (size > target && length > 0) {
            int oldest = (head - (length - 1) + ring.length) % ring.length;
            size -= ring[oldest].size();
            ring[oldest] = null;
            length--;
        }
    }

    private void grow() {
        HeaderField[] bigger = new HeaderField[ring.length * 2];
        for (int i = 0; i < length; i++) {
            // oldest first into slots 0..length-1
            bigger[i] = get(length - i);
        }
        ring = bigger;
        head = length - 1;
    }
}
