package dev.weft.micronaut.app;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The files {@link FilesController} serves, written on first use into a temporary folder with the same bytes and
 * modification time on every run (so Netty's recorded answers and Weft's can be compared): a small CSV report
 * and a binary file of {@link #BIG_SIZE} bytes.
 */
@Singleton
public class SampleFiles {

    /** Size of the large file, and of the generated stream. */
    public static final int BIG_SIZE = 6 * 1024 * 1024 + 123;

    /** The modification time of both files. */
    public static final Instant MODIFIED = Instant.parse("2024-03-01T12:00:00Z");

    private Path dir;

    public synchronized Path report() {
        return file("report.csv", () -> {
            StringBuilder csv = new StringBuilder("id,name,amount\n");
            for (int i = 1; i <= 2000; i++) {
                csv.append(i).append(",item-").append(i).append(',').append(i * 7 % 1000).append('\n');
            }
            return csv.toString().getBytes(StandardCharsets.UTF_8);
        });
    }

    public synchronized Path big() {
        return file("big.bin", () -> {
            byte[] bytes = new byte[BIG_SIZE];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = byteAt(i);
            }
            return bytes;
        });
    }

    /** The byte at {@code index} of the large file and of {@link #generated()}. */
    public static byte byteAt(long index) {
        return (byte) (index * 31 + (index >> 10));
    }

    /** A stream of {@link #BIG_SIZE} bytes made as they are read (no file, no known length). */
    public static InputStream generated() {
        return new InputStream() {
            private long position;

            @Override
            public int read() {
                return position < BIG_SIZE ? byteAt(position++) & 0xff : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (position >= BIG_SIZE) {
                    return -1;
                }
                int n = (int) Math.min(len, BIG_SIZE - position);
                for (int i = 0; i < n; i++) {
                    b[off + i] = byteAt(position++);
                }
                return n;
            }
        };
    }

    private Path file(String name, java.util.function.Supplier<byte[]> content) {
        try {
            if (dir == null) {
                dir = Files.createTempDirectory("weft-sample-files");
            }
            Path file = dir.resolve(name);
            if (!Files.exists(file)) {
                Files.write(file, content.get());
                Files.setLastModifiedTime(file, FileTime.from(MODIFIED));
            }
            return file;
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @PreDestroy
    synchronized void delete() throws IOException {
        if (dir != null) {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
