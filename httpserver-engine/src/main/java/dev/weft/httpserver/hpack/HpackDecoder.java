package dev.weft.httpserver.hpack;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes RFC 7541 header blocks. One instance per connection direction; not thread-safe.
 */
public final class HpackDecoder {

    /** Default SETTINGS_HEADER_TABLE_SIZE (RFC 9113 §6.5.2). */
    public static final int DEFAULT_HEADER_TABLE_SIZE = 4096;
    /** Default limit on the length of a single name or value. */
    public static final int DEFAULT_MAX_STRING_LENGTH = 64 * 1024;

    private final DynamicTable table;
    private int maxTableSizeLimit;
    private int maxHeaderListSize;
    private int maxStringLength = DEFAULT_MAX_STRING_LENGTH;
    private boolean sizeUpdateRequired;
    private final RepeatedLiterals repeated = new RepeatedLiterals();

    /** A decoder with a 4096-octet table limit and no header list size limit. */
    public HpackDecoder() {
        this(DEFAULT_HEADER_TABLE_SIZE, Integer.MAX_VALUE);
    }

    /**
     * @param maxTableSizeLimit the SETTINGS_HEADER_TABLE_SIZE we advertised
     * @param maxHeaderListSize the SETTINGS_MAX_HEADER_LIST_SIZE we enforce (name + value + 32 per field)
     */
    public HpackDecoder(int maxTableSizeLimit, int maxHeaderListSize) {
        if (maxTableSizeLimit < 0 || maxHeaderListSize < 0) {
            throw new IllegalArgumentException("negative limit");
        }
        this.table = new DynamicTable(maxTableSizeLimit);
        this.maxTableSizeLimit = maxTableSizeLimit;
        this.maxHeaderListSize = maxHeaderListSize;
    }

    /**
     * Changes the table size limit (our SETTINGS_HEADER_TABLE_SIZE, once acknowledged). If it drops below
     * the current table size, the peer must start its next header block with a size update.
     */
    public void setMaxTableSizeLimit(int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("negative limit");
        }
        maxTableSizeLimit = limit;
        if (limit < table.maxSize()) {
            sizeUpdateRequired = true;
        }
    }

    public int maxTableSizeLimit() {
        return maxTableSizeLimit;
    }

    public void setMaxHeaderListSize(int maxHeaderListSize) {
        this.maxHeaderListSize = maxHeaderListSize;
    }

    public void setMaxStringLength(int maxStringLength) {
        this.maxStringLength = maxStringLength;
    }

    /** The dynamic table (for inspection). */
    public DynamicTable dynamicTable() {
        return table;
    }

    /** Decodes a complete header block. */
    public List<HeaderField> decode(byte[] block) throws HpackException {
        return decode(ByteBuffer.wrap(block));
    }

    /**
     * Decodes a complete header block. If the header list exceeds the maximum size the whole block is still
     * processed (keeping the dynamic table in sync) and a non-connection {@link HpackException} is thrown.
     */
    public List<HeaderField> decode(ByteBuffer in) throws HpackException {
        List<HeaderField> fields = new ArrayList<>();
        long listSize = 0;
        boolean atStart = true;
        while (in.hasRemaining()) {
            int b = in.get(in.position()) & 0xff;
            if ((b & 0xe0) == 0x20) {
                if (!atStart) {
                    throw HpackException.compression("dynamic table size update after a header field");
                }
                int newSize = PrefixedInteger.decode(in, 5);
                if (newSize > maxTableSizeLimit) {
                    throw HpackException.compression(
                            "table size update " + newSize + " exceeds limit " + maxTableSizeLimit);
                }
                table.setMaxSize(newSize);
                sizeUpdateRequired = false;
                continue;
            }
            if (atStart && sizeUpdateRequired) {
                throw HpackException.compression("missing dynamic table size update");
            }
            atStart = false;
            HeaderField field = readField(in, b);
            listSize += field.size();
            if (listSize <= maxHeaderListSize) {
                fields.add(field);
            }
        }
        if (listSize > maxHeaderListSize) {
            throw HpackException.headerListTooLarge(
                    "header list size " + listSize + " exceeds " + maxHeaderListSize);
        }
        return fields;
    }

    private HeaderField readField(ByteBuffer in, int b) throws HpackException {
        if ((b & 0x80) != 0) {
            int index = PrefixedInteger.decode(in, 7);
            if (index == 0) {
                throw HpackException.compression("indexed header field with index 0");
            }
            return lookup(index);
        }
        boolean indexing = (b & 0x40) != 0;
        boolean neverIndexed = !indexing && (b & 0x10) != 0;
        int nameIndex = PrefixedInteger.decode(in, indexing ? 6 : 4);
        String name = nameIndex == 0 ? readString(in) : lookup(nameIndex).name();
        if (!indexing && !neverIndexed && in.hasArray()) {
            return readUnindexedLiteral(in, name);
        }
        String value = readString(in);
        HeaderField field = new HeaderField(name, value, neverIndexed);
        if (indexing) {
            table.add(field);
        }
        return field;
    }

    /** A literal without indexing: a repeat of a recent one is the same field, else it is decoded. */
    private HeaderField readUnindexedLiteral(ByteBuffer in, String name) throws HpackException {
        int start = in.position();
        if (!in.hasRemaining()) {
            throw HpackException.compression("truncated string literal");
        }
        int length = PrefixedInteger.decode(in, 7);
        int end = in.position() + length;
        if (length > in.remaining() || end - start > RepeatedLiterals.MAX_ENCODED_LENGTH) {
            in.position(start);
            return new HeaderField(name, readString(in), false);
        }
        byte[] block = in.array();
        int offset = in.arrayOffset();
        HeaderField field = repeated.find(name, block, offset + start, offset + end);
        if (field != null && field.value().length() <= maxStringLength) {
            in.position(end);
            return field;
        }
        in.position(start);
        field = new HeaderField(name, readString(in), false);
        repeated.remember(field, block, offset + start, offset + end);
        return field;
    }

    private HeaderField lookup(int index) throws HpackException {
        if (index <= StaticTable.LENGTH) {
            return StaticTable.get(index);
        }
        int dynamicIndex = index - StaticTable.LENGTH;
        if (dynamicIndex > table.length()) {
            throw HpackException.compression("header table index " + index + " out of range");
        }
        return table.get(dynamicIndex);
    }

    private String readString(ByteBuffer in) throws HpackException {
        if (!in.hasRemaining()) {
            throw HpackException.compression("truncated string literal");
        }
        boolean huffman = (in.get(in.position()) & 0x80) != 0;
        int length = PrefixedInteger.decode(in, 7);
        if (length > in.remaining()) {
            throw HpackException.compression("truncated string literal");
        }
        if (huffman) {
            byte[] decoded = HuffmanDecoder.decode(in, length, maxStringLength);
            return new String(decoded, StandardCharsets.ISO_8859_1);
        }
        if (length > maxStringLength) {
            throw HpackException.compression("string literal exceeds " + maxStringLength + " octets");
        }
        byte[] raw = new byte[length];
        in.get(raw);
        return new String(raw, StandardCharsets.ISO_8859_1);
    }
}
