package dev.weft.httpserver.accesslog;

import java.io.BufferedOutputStream;
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
 * earlier day is rotated when opened. Lines are UTF-8, each ended by {@code \n}. Used by one thread.
 */
final class RotatingFile implements Destination {

    private static final int BUFFER = 64 * 1024;

    private final Path file;
    private final Rotation rotation;
    private final ZoneId zone = ZoneId.systemDefault();
    private OutputStream out;
    private long size;
    /** Lines of the batch being written, collected for one write. */
    private byte[] pending = new byte[64 * 1024];
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
        out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND, StandardOpenOption.WRITE), BUFFER);
        size = Files.size(file);
        day = LocalDate.ofInstant(Instant.ofEpochMilli(nowMillis), zone);
        nextDayMillis = day.plusDays(1).atStartOfDay(zone).toInstant().toEpochMilli();
    }

    @Override
    @SuppressWarnings("deprecation") // String.getBytes(int, int, byte[], int): the ASCII copy wanted here
    public void write(List<String> lines) throws IOException {
        long now = System.currentTimeMillis();
        if (rotation.daily() && now >= nextDayMillis) {
            rotate(now);
        }
        for (String line : lines) {
            int n = line.length() + 1;
            if (rotation.full(size, n)) {
                drainPending();
                rotate(now);
            }
            if (pending.length - count < n) {
                drainPending();
                if (pending.length < n) {
                    pending = new byte[Math.max(n, pending.length * 2)];
                }
            }
            // Lines are ASCII (LogPattern escapes everything else), so each char is one byte.
            line.getBytes(0, line.length(), pending, count);
            count += n;
            pending[count - 1] = '\n';
            size += n;
        }
        drainPending();
    }

    /** Hands the collected lines to the file's stream in one write. */
    private void drainPending() throws IOException {
        if (count > 0) {
            out.write(pending, 0, count);
            count = 0;
        }
    }

    private void rotate(long nowMillis) throws IOException {
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
        out.flush();
    }

    @Override
    public void close() throws IOException {
        if (out != null) {
            out.close();
        }
    }

    @Override
    public String toString() {
        return file.toString();
    }
}
