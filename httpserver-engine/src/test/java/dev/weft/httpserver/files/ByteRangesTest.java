package dev.weft.httpserver.files;

import dev.weft.httpserver.files.ByteRanges.Range;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

class ByteRangesTest {

    private static List<Range> ranges(String header, long length) {
        return assertInstanceOf(ByteRanges.Satisfiable.class, ByteRanges.parse(header, length, 16), header).ranges();
    }

    @Test
    void singleSuffixAndOpenRangesAreClampedToTheLength() {
        assertEquals(List.of(new Range(0, 499)), ranges("bytes=0-499", 10_000));
        assertEquals(List.of(new Range(9500, 9999)), ranges("bytes=9500-", 10_000));
        assertEquals(List.of(new Range(9500, 9999)), ranges("bytes=-500", 10_000));
        assertEquals(List.of(new Range(0, 99)), ranges("bytes=-500", 100));
        assertEquals(List.of(new Range(90, 99)), ranges("BYTES = 90-99999999999999999999999", 100));
    }

    @Test
    void severalRangesAreSortedAndCoalesced() {
        assertEquals(List.of(new Range(0, 1), new Range(3, 4)), ranges("bytes=3-4, 0-1", 10));
        assertEquals(List.of(new Range(0, 6)), ranges("bytes=0-3,2-5,6-6", 10));
        assertEquals(List.of(new Range(0, 0), new Range(9, 9)), ranges("bytes=0-0,,-1", 10));
    }

    @Test
    void unsatisfiableRangesGive416AndAreDroppedAmongOthers() {
        assertInstanceOf(ByteRanges.Unsatisfiable.class, ByteRanges.parse("bytes=10-", 10, 16));
        assertInstanceOf(ByteRanges.Unsatisfiable.class, ByteRanges.parse("bytes=-0", 10, 16));
        assertInstanceOf(ByteRanges.Unsatisfiable.class, ByteRanges.parse("bytes=0-", 0, 16));
        assertEquals(List.of(new Range(5, 9)), ranges("bytes=20-30,5-", 10));
    }

    @Test
    void invalidOrUnknownOrTooManyRangesServeTheWholeFile() {
        for (String h : List.of("bytes=5-4", "bytes=a-b", "bytes=1", "bytes=", "items=0-1", "bytes 0-1",
                "bytes=0-1-2", "bytes=+1-2", "bytes=-", "bytes=--1")) {
            assertInstanceOf(ByteRanges.Ignore.class, ByteRanges.parse(h, 10, 16), h);
        }
        assertInstanceOf(ByteRanges.Ignore.class, ByteRanges.parse(null, 10, 16));
        assertInstanceOf(ByteRanges.Ignore.class, ByteRanges.parse("bytes=-5", 0, 16));
        String sixteen = "bytes=" + "0-0,".repeat(15) + "0-0";
        assertEquals(List.of(new Range(0, 0)), ranges(sixteen, 10));
        assertInstanceOf(ByteRanges.Ignore.class, ByteRanges.parse(sixteen + ",0-0", 10, 16));
    }
}
