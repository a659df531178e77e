package dev.weft.httpserver.accesslog;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a log file is rotated and which rotated files are kept. A rotated file is named after the live one plus the
 * day its lines were written ({@code access.log.2026-11-27}, when rotating daily) and a sequence number when the
 * size rotates it ({@code access.log.2026-11-27.3}, or {@code access.log.3} without daily rotation); the highest
 * number is the newest. Only the {@code maxFiles} newest rotated files are kept.
 *
 * @param daily       whether the file is rotated when the day changes (system time zone)
 * @param maxFileSize size in bytes beyond which the file is rotated; 0 for no limit
 * @param maxFiles    how many rotated files are kept, at least 1
 */
public record Rotation(boolean daily, long maxFileSize, int maxFiles) {

    private static final Pattern SUFFIX = Pattern.compile("(\\d{4}-\\d{2}-\\d{2})(?:\\.(\\d{1,18}))?|(\\d{1,18})");

    /** Validates the numbers. */
    public Rotation {
        if (maxFileSize < 0) {
            throw new IllegalArgumentException("maxFileSize must not be negative, was " + maxFileSize);
        }
        if (maxFiles < 1) {
            throw new IllegalArgumentException("maxFiles must be at least 1, was " + maxFiles);
        }
    }

    /** A rotated file's place in the order oldest first: its day (empty without one) and its number. */
    private record Rank(Path file, String day, long number) {
    }

    /** Whether a file of {@code size} bytes must rotate before {@code bytes} more are written to it. */
    boolean full(long size, long bytes) {
        return maxFileSize > 0 && size > 0 && size + bytes > maxFileSize;
    }

    /** Whether a file of {@code size} bytes would outgrow the limit with {@code bytes} more. */
    boolean exceeded(long size, long bytes) {
        return maxFileSize > 0 && size + bytes > maxFileSize;
    }

    /**
     * The name the live file {@code live}, written on {@code day}, is renamed to: the day alone if it is free and
     * the size never rotates, else the day (if daily) and the number after the highest one present.
     */
    Path rotatedName(Path live, LocalDate day) throws IOException {
        String base = live.getFileName() + (daily ? "." + day : "");
        Path plain = live.resolveSibling(base);
        if (maxFileSize == 0 && !Files.exists(plain)) {
            return plain;
        }
        String dayText = daily ? day.toString() : "";
        long highest = 0;
        for (Rank r : rotated(live)) {
            if (r.day.equals(dayText)) {
                highest = Math.max(highest, r.number);
            }
        }
        return live.resolveSibling(base + "." + (highest + 1));
    }

    /** Deletes the oldest rotated files of {@code live} beyond {@code maxFiles}. */
    void prune(Path live) throws IOException {
        List<Rank> files = rotated(live);
        for (int i = 0; i < files.size() - maxFiles; i++) {
            Files.deleteIfExists(files.get(i).file);
        }
    }

    /** The rotated files of {@code live}, oldest first; other files in its directory are left alone. */
    static List<Path> rotatedFiles(Path live) throws IOException {
        return rotated(live).stream().map(Rank::file).toList();
    }

    private static List<Rank> rotated(Path live) throws IOException {
        Path dir = live.toAbsolutePath().getParent();
        String prefix = live.getFileName() + ".";
        List<Rank> found = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir, p -> p.getFileName().toString()
                .startsWith(prefix))) {
            for (Path p : entries) {
                String suffix = p.getFileName().toString().substring(prefix.length());
                Matcher m = SUFFIX.matcher(suffix);
                if (m.matches()) {
                    String number = m.group(1) != null ? m.group(2) : m.group(3);
                    found.add(new Rank(p, m.group(1) == null ? "" : m.group(1),
                            number == null ? 0 : Long.parseLong(number)));
                }
            }
        }
        found.sort(Comparator.comparing(Rank::day).thenComparingLong(Rank::number));
        return found;
    }
}
