package dev.weft.httpserver.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class DynamicTableTest {

    private static HeaderField f(String name, String value) {
        return new HeaderField(name, value);
    }

    @Test
    void entrySizeIsNamePlusValuePlus32() {
        assertEquals(55, f("custom-key", "custom-header").size());
        assertEquals(32, f("", "").size());
    }

    @Test
    void newestEntryHasIndexOne() {
        DynamicTable t = new DynamicTable(4096);
        t.add(f("a", "1"));
        t.add(f("b", "2"));
        assertEquals(2, t.length());
        assertEquals(f("b", "2"), t.get(1));
        assertEquals(f("a", "1"), t.get(2));
        assertEquals(68, t.size());
        assertThrows(IndexOutOfBoundsException.class, () -> t.get(0));
        assertThrows(IndexOutOfBoundsException.class, () -> t.get(3));
    }

    @Test
    void evictsOldestFirstWhenFull() {
        DynamicTable t = new DynamicTable(34 * 3);
        t.add(f("a", "1"));
        t.add(f("b", "2"));
        t.add(f("c", "3"));
        assertEquals(3, t.length());
        t.add(f("d", "4"));
        assertEquals(3, t.length());
        assertEquals(f("d", "4"), t.get(1));
        assertEquals(f("b", "2"), t.get(3));
        assertEquals(102, t.size());
    }

    @Test
    void addingMayEvictSeveralEntries() {
        DynamicTable t = new DynamicTable(100);
        t.add(f("a", "1"));
        t.add(f("b", "2"));
        t.add(f("big", "x".repeat(60))); // 95 octets
        assertEquals(1, t.length());
        assertEquals(95, t.size());
    }

    @Test
    void entryLargerThanTableEmptiesIt() {
        DynamicTable t = new DynamicTable(100);
        t.add(f("a", "1"));
        t.add(f("huge", "x".repeat(100)));
        assertEquals(0, t.length());
        assertEquals(0, t.size());
    }

    @Test
    void shrinkingMaxSizeEvicts() {
        DynamicTable t = new DynamicTable(4096);
        for (int i = 0; i < 10; i++) {
            t.add(f("n" + i, "v")); // 35 octets each
        }
        t.setMaxSize(100);
        assertEquals(2, t.length());
        assertEquals(f("n9", "v"), t.get(1));
        assertEquals(f("n8", "v"), t.get(2));
        t.setMaxSize(0);
        assertEquals(0, t.length());
        t.add(f("a", "b"));
        assertEquals(0, t.length());
        t.setMaxSize(4096);
        t.add(f("a", "b"));
        assertEquals(1, t.length());
    }

    @Test
    void growsAndWrapsAround() {
        DynamicTable t = new DynamicTable(34 * 40);
        for (int i = 0; i < 1000; i++) {
            t.add(f(Character.toString('a' + i % 26), Integer.toString(i % 10)));
            int expected = Math.min(i + 1, 40);
            assertEquals(expected, t.length());
            for (int k = 1; k <= expected; k++) {
                int j = i - (k - 1);
                assertEquals(f(Character.toString('a' + j % 26), Integer.toString(j % 10)), t.get(k));
            }
        }
    }

    @Test
    void lookups() {
        DynamicTable t = new DynamicTable(4096);
        t.add(f("x", "1"));
        t.add(f("y", "2"));
        t.add(f("x", "3"));
        assertEquals(1, t.indexOf("x"));
        assertEquals(3, t.indexOf("x", "1"));
        assertEquals(2, t.indexOf("y", "2"));
        assertEquals(-1, t.indexOf("y", "3"));
        assertEquals(-1, t.indexOf("z"));
    }

    @Test
    void staticTableLookups() {
        assertEquals(61, StaticTable.LENGTH);
        assertEquals(new HeaderField(":authority", ""), StaticTable.get(1));
        assertEquals(new HeaderField("www-authenticate", ""), StaticTable.get(61));
        assertEquals(2, StaticTable.indexOf(":method"));
        assertEquals(3, StaticTable.indexOf(":method", "POST"));
        assertEquals(8, StaticTable.indexOf(":status"));
        assertEquals(13, StaticTable.indexOf(":status", "404"));
        assertEquals(16, StaticTable.indexOf("accept-encoding", "gzip, deflate"));
        assertEquals(-1, StaticTable.indexOf(":status", "201"));
        assertEquals(-1, StaticTable.indexOf("x-custom"));
        assertThrows(IndexOutOfBoundsException.class, () -> StaticTable.get(0));
        assertThrows(IndexOutOfBoundsException.class, () -> StaticTable.get(62));
    }
}
