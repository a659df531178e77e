package dev.weft.httpserver.accesslog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/** Rotated files are named by day and number, the newest kept, and a file from an earlier day rotated at open. */
class RotationTest {

    private static final LocalDate DAY = LocalDate.of(2026, 11, 27);

    @TempDir
    Path dir;

    @Test
    void dailyOnlyNamesTheFileAfterItsDay() throws Exception {
        Path live = dir.resolve("access.log");
        Rotation daily = new Rotation(true, 0, 5);
        assertEquals(dir.resolve("access.log.2026-11-27"), daily.rotatedName(live, DAY));
        Files.createFile(dir.resolve("access.log.2026-11-27"));
        assertEquals(dir.resolve("access.log.2026-11-27.1"), daily.rotatedName(live, DAY));
    }

    @Test
    void sizeRotationNumbersFromOneUpwards() throws Exception {
        Path live = dir.resolve("access.log");
        Rotation bySize = new Rotation(false, 1000, 5);
        assertEquals(dir.resolve("access.log.1"), bySize.rotatedName(live, DAY));
        Files.createFile(dir.resolve("access.log.1"));
        Files.createFile(dir.resolve("access.log.2"));
        assertEquals(dir.resolve("access.log.3"), bySize.rotatedName(live, DAY));
        assertEquals(dir.resolve("access.log.2026-11-27.1"), new Rotation(true, 1000, 5).rotatedName(live, DAY));
        assertTrue(bySize.full(900, 101));
        assertFalse(bySize.full(900, 100));
        assertFalse(bySize.full(0, 5000), "a line larger than the limit still goes into an empty file");
    }

    @Test
    void pruneKeepsTheNewestAndLeavesOtherFilesAlone() throws Exception {
        Path live = dir.resolve("access.log");
        for (String name : List.of("access.log.2026-11-26", "access.log.2026-11-27.2", "access.log.2026-11-27.10",
                "access.log.2026-11-25.1", "access.log.gz", "access.log.old", "other.log.1")) {
            Files.createFile(dir.resolve(name));
        }
        new Rotation(true, 0, 2).prune(live);
        assertEquals(List.of(dir.resolve("access.log.2026-11-27.2"), dir.resolve("access.log.2026-11-27.10")),
                Rotation.rotatedFiles(live));
        assertTrue(Files.exists(dir.resolve("access.log.gz")));
        assertTrue(Files.exists(dir.resolve("access.log.old")));
        assertTrue(Files.exists(dir.resolve("other.log.1")));
    }

    @Test
    void aFileLeftFromAnEarlierDayIsRotatedWhenOpened() throws Exception {
        Path live = dir.resolve("access.log");
        Files.writeString(live, "old line\n");
        LocalDate yesterday = LocalDate.now(ZoneId.systemDefault()).minusDays(1);
        Files.setLastModifiedTime(live,
                FileTime.from(yesterday.atTime(12, 0).atZone(ZoneId.systemDefault()).toInstant()));
        RotatingFile file = new RotatingFile(live, new Rotation(true, 0, 5));
        file.open();
        file.write(List.of(TestLines.of("new line")));
        file.close();
        assertEquals("old line\n", Files.readString(dir.resolve("access.log." + yesterday)));
        assertEquals("new line\n", Files.readString(live));
    }

    @Test
    void aBatchThatOutgrowsTheLimitIsSplitBetweenFilesAtLineEnds() throws Exception {
        Path live = dir.resolve("access.log");
        RotatingFile file = new RotatingFile(live, new Rotation(false, 20, 5));
        file.open();
        file.write(List.of(TestLines.of("first line", "second line", "third"), TestLines.of("fourth line")));
        file.close();
        assertEquals("first line\n", Files.readString(dir.resolve("access.log.1")));
        assertEquals("second line\nthird\n", Files.readString(dir.resolve("access.log.2")));
        assertEquals("fourth line\n", Files.readString(live));
    }
}
