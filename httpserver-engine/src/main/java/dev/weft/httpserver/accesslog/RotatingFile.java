package dev.weft.httpserver.accesslog;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/**
 * A log file that lines are appended to, rotated as its {@link Rotation} says: the live file is renamed and a new
 * one started when the day changes or the next line would make it larger than the limit. A file left from an
 * earlier day is rotated when opened. Lines are collected in a 64 KiB buffer, written when it is full or flushed.
 * Used by one thread.
 */
final class RotatingFile implements Destination {

    private final Path file;
    private final Rotation rotation;
    private final ZoneId zone = ZoneId.systemDefault();
    private OutputStream out;
    private long size;
    /** Lines of the batch being written, collected for one write. */
    private final byte[] pending = new byte[64 * 1024];
    private int count;
    /** The day the live file's lines were written on. */
    private LocalDate day;
    /** When the day changes, epoch milliseconds. */
    private long nextDayMillis;

    RotatingFile(Path file, Rotation rotation) {
        this.file = file.toAbsolutePath();
        this.rotation = rotation;
    }

    @Override
    public void open() throws IOException {
        Files.createDirectories(file.getParent());
        if (rotation.daily() && Files.exists(file) && Files.size(file) > 0) {
            LocalDate written = LocalDate.ofInstant(Files.getLastModifiedTime(file).toInstant(), zone);
            if (written.isBefore(LocalDate.now(zone))) {
                Files.move(file, rotation.rotatedName(file, written));
                rotation.prune(file);
            }
        }
        start(System.currentTimeMillis());
    }

    private void start(long nowMillis) throws IOException {
        out = Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
                StandardOpenOption.WRITE);
        size = Files.size(file);
        day = LocalDate.ofInstant(Instant.ofEpochMilli(nowMillis), zone);
        nextDayMillis = day.plusDays(1).atStartOfDay(zone).toInstant().toEpochMilli();
    }

    @Override
    public void write(List<Lines> batch) throws IOException {
        long now = System.currentTimeMillis();
        if (rotation.daily() && now >= nextDayMillis) {
            rotate(now);
        }
        for (Lines lines : batch) {
            if (rotation.exceeded(size, lines.length())) {
                appendLineByLine(lines, now);
            } else {
                append(lines.bytes(), 0, lines.length());
            }
        }
    }

    /** Appends {@code lines} one at a time, rotating before the line that would make the file too large. */
    private void appendLineByLine(Lines lines, long now) throws IOException {
        byte[] bytes = lines.bytes();
        int start = 0;
        for (int i = 0; i < lines.length(); i++) {
            if (bytes[i] == '\n') {
                int n = i + 1 - start;
                if (rotation.full(size, n)) {
                    rotate(now);
                }
                append(bytes, start, n);
                start = i + 1;
            }
        }
    }

    private void append(byte[] bytes, int offset, int n) throws IOException {
        size += n;
        if (pending.length - count < n) {
            drainPending();
            if (n > pending.length) {
                out.write(bytes, offset, n);
                return;
            }
        }
        System.arraycopy(bytes, offset, pending, count, n);
        count += n;
    }

    /** Hands the collected lines to the file in one write. */
    private void drainPending() throws IOException {
        if (count > 0) {
            out.write(pending, 0, count);
            count = 0;
        }
    }

    private void rotate(long nowMillis) throws IOException {
        drainPending(); // the live file's lines stay in it
        out.close();
        try {
            Files.move(file, rotation.rotatedName(file, day));
            rotation.prune(file);
        } finally {
            start(nowMillis); // appends to the live file if it could not be moved
        }
    }

    @Override
    public void flush() throws IOException {
        drainPending();
    }

    @Override
    public void close() throws IOException {
        if (out != null) {
            drainPending();
            out.close();
        }
    }

    @Override
    public String toString() {
        return file.toString();
    }
}
