package dev.weft.httpserver.hpack;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;

/**
 * Encodes header lists into RFC 7541 header blocks. One instance per connection direction; not thread-safe.
 * Field names are expected in lower case, as HTTP/2 requires.
 */
public final class HpackEncoder {

    /** Cookies shorter than this are guessable, so they are never indexed (RFC 7541 §7.1.3). */
    private static final int MIN_INDEXED_COOKIE_LENGTH = 20;
    /** How many of the newest dynamic-table entries are first searched for the field's very strings. */
    private static final int RECENT_ENTRIES = 16;
    private static final Set<String> ALWAYS_SENSITIVE = Set.of("authorization", "proxy-authorization", "set-cookie");
    private final DynamicTable table;
    private final int maxTableSizeCap;
    private boolean useHuffman = true;
    /** Entry lookup for the dynamic table: field (or name) to the number of its newest insertion. */
    private final java.util.HashMap<HeaderField, Long> fieldSeq = new java.util.HashMap<>();
    private final java.util.HashMap<String, Long> nameSeq = new java.util.HashMap<>();
    /** Entries this encoder has added to its table so far. */
    private long added;
    /** Smallest table size chosen since the last block, or -1 when no update is pending. */
    private int pendingMinSize = -1;
    /**
     * The last header list encoded and its block, while they may be sent again as they are: the block added
     * nothing to the table and the table has not changed since, so its indices still mean the same fields.
     * A server answering alike again and again (same status, type, length and date) encodes once.
     */
    private List<HeaderField> lastFields;
    private final HeaderBlockBuffer lastBlock = new HeaderBlockBuffer();
    /** The block being encoded added to the table. */
    private boolean tableChanged;

    /** An encoder for a peer with the default 4096-octet table, never using a bigger table than that. */
    public HpackEncoder() {
        this(HpackDecoder.DEFAULT_HEADER_TABLE_SIZE, HpackDecoder.DEFAULT_HEADER_TABLE_SIZE);
    }

    /**
     * @param maxTableSizeCap       the largest dynamic table this encoder will use, whatever the peer allows
     * @param peerInitialTableSize  the table size the peer's decoder starts with (4096 in HTTP/2)
     */
    public HpackEncoder(int maxTableSizeCap, int peerInitialTableSize) {
        if (maxTableSizeCap < 0 || peerInitialTableSize < 0) {
            throw new IllegalArgumentException("negative table size");
        }
        this.maxTableSizeCap = maxTableSizeCap;
        this.table = new DynamicTable(Math.min(maxTableSizeCap, peerInitialTableSize));
        if (table.maxSize() < peerInitialTableSize) {
            pendingMinSize = table.maxSize(); // the peer's table starts bigger: tell it we use less
        }
    }

    /** Disables or enables Huffman coding (it is only ever used when shorter). */
    public void setUseHuffman(boolean useHuffman) {
        this.useHuffman = useHuffman;
        lastFields = null;
    }

    /**
     * Applies the peer's SETTINGS_HEADER_TABLE_SIZE. The table is resized at once, and the next header block
     * starts with the size update(s) the peer needs to follow (RFC 7541 §4.2).
     */
    public void setPeerMaxTableSize(int peerMaxTableSize) {
        if (peerMaxTableSize < 0) {
            throw new IllegalArgumentException("negative table size");
        }
        int newSize = Math.min(peerMaxTableSize, maxTableSizeCap);
        if (newSize == table.maxSize() && pendingMinSize < 0) {
            return; // no change to signal (RFC 7541 §4.2): e.g. a client's SETTINGS repeating the default
        }
        pendingMinSize = pendingMinSize < 0 ? newSize : Math.min(pendingMinSize, newSize);
        table.setMaxSize(newSize);
        lastFields = null;
    }

    /** The dynamic table (for inspection). */
    public DynamicTable dynamicTable() {
        return table;
    }

    /** Encodes a header list into a new header block. */
    public byte[] encode(List<HeaderField> fields) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        encode(fields, out);
        return out.toByteArray();
    }

    /** Encodes a header list as one header block into {@code out}. */
    public void encode(List<HeaderField> fields, ByteArrayOutputStream out) {
        if (lastFields != null && lastFields.equals(fields)) {
            out.write(lastBlock.array(), 0, lastBlock.size());
            return;
        }
        boolean sizeUpdate = pendingMinSize >= 0;
        tableChanged = false;
        lastBlock.reset();
        if (sizeUpdate) {
            if (pendingMinSize < table.maxSize()) {
                PrefixedInteger.encode(lastBlock, 0x20, 5, pendingMinSize);
            }
            PrefixedInteger.encode(lastBlock, 0x20, 5, table.maxSize());
            pendingMinSize = -1;
        }
        for (HeaderField field : fields) {
            encodeField(field, lastBlock);
        }
        out.write(lastBlock.array(), 0, lastBlock.size());
        // Reusable only if the table is now as it was before this block (a size update may have evicted).
        lastFields = tableChanged || sizeUpdate ? null : List.copyOf(fields);
    }

    private void encodeField(HeaderField field, ByteArrayOutputStream out) {
        String name = field.name();
        String value = field.value();
        boolean sensitive = isSensitive(field);
        if (!sensitive) {
            int same = table.indexOfSame(name, value, RECENT_ENTRIES);
            if (same > 0) {
                PrefixedInteger.encode(out, 0x80, 7, StaticTable.LENGTH + same);
                return;
            }
            int exact = StaticTable.indexOf(field);
            if (exact < 0) {
                int dynamic = dynamicIndex(fieldSeq.get(field), field);
                exact = dynamic < 0 ? -1 : StaticTable.LENGTH + dynamic;
            }
            if (exact > 0) {
                PrefixedInteger.encode(out, 0x80, 7, exact);
                return;
            }
        }
        int nameIndex = StaticTable.indexOf(name);
        if (nameIndex < 0) {
            int dynamic = dynamicIndex(nameSeq.get(name), null);
            nameIndex = dynamic < 0 ? 0 : StaticTable.LENGTH + dynamic;
        }
        boolean index = !sensitive && worthIndexing(field);
        if (sensitive) {
            PrefixedInteger.encode(out, 0x10, 4, nameIndex);
        } else if (index) {
            PrefixedInteger.encode(out, 0x40, 6, nameIndex);
        } else {
            PrefixedInteger.encode(out, 0x00, 4, nameIndex);
        }
        if (nameIndex == 0) {
            writeString(name, out);
        }
        writeString(value, out);
        if (index) {
            HeaderField entry = field.sensitive() ? new HeaderField(name, value) : field;
            table.add(entry);
            tableChanged = true;
            if (table.length() > 0 && table.get(1) == entry) {
                added++;
                fieldSeq.put(entry, added);
                nameSeq.put(name, added);
                if (fieldSeq.size() > 2 * table.length() + 32) {
                    reindex();
                }
            }
        }
    }

    /**
     * The current 1-based dynamic-table index of the entry added as number {@code seq}, or -1 if there is
     * none or it has been evicted since. Entries leave from the oldest end, so an entry is still there
     * exactly when fewer than {@code length} entries were added after it.
     */
    private int dynamicIndex(Long seq, HeaderField field) {
        if (seq == null) {
            return -1;
        }
        long index = added - seq + 1;
        if (index > table.length()) {
            if (field != null) {
                fieldSeq.remove(field);
            }
            return -1;
        }
        return (int) index;
    }

    /** Rebuilds the lookup maps from the table, dropping evicted entries. */
    private void reindex() {
        fieldSeq.clear();
        nameSeq.clear();
        for (int i = table.length(); i >= 1; i--) {
            HeaderField f = table.get(i);
            long seq = added - i + 1;
            fieldSeq.put(f, seq);
            nameSeq.put(f.name(), seq);
        }
    }

    /** True if the field must be sent as a never-indexed literal. */
    static boolean isSensitive(HeaderField field) {
        if (field.sensitive()) {
            return true;
        }
        String name = field.name();
        return switch (name.length()) {
            case 6 -> name.equals("cookie") && field.value().length() < MIN_INDEXED_COOKIE_LENGTH;
            case 10, 13, 19 -> ALWAYS_SENSITIVE.contains(name);
            default -> false;
        };
    }

    /**
     * An incremental-indexing literal costs no more octets than a non-indexed one (its 6-bit name prefix even
     * saves an octet for static names 15..61) and lets a repeat be sent as a single index; it is skipped only
     * for fields too big for the table, whose insertion would just empty it.
     */
    private boolean worthIndexing(HeaderField field) {
        return field.size() <= table.maxSize();
    }

    private void writeString(String s, ByteArrayOutputStream out) {
        byte[] raw = s.getBytes(StandardCharsets.ISO_8859_1);
        if (useHuffman) {
            int huffLength = HuffmanEncoder.encodedLength(raw);
            if (huffLength < raw.length) {
                PrefixedInteger.encode(out, 0x80, 7, huffLength);
                HuffmanEncoder.encode(raw, out);
                return;
            }
        }
        PrefixedInteger.encode(out, 0x00, 7, raw.length);
        out.write(raw, 0, raw.length);
    }
}
