package dev.weft.httpserver.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Random;

/**
 * A file of pseudo-random bytes (the same for the same seed) written into a directory for a test, with the
 * SHA-256 of any of its slices, so that a body of tens of megabytes is compared without holding it.
 */
public record TestFile(Path path, long size) {

    /** Writes {@code size} bytes seeded by {@code seed} to {@code dir/name}. */
    public static TestFile create(Path dir, String name, long size, long seed) throws IOException {
        Path path = dir.resolve(name);
        Random random = new Random(seed);
        byte[] block = new byte[1024 * 1024];
        try (OutputStream out = Files.newOutputStream(path)) {
            for (long left = size; left > 0; ) {
                random.nextBytes(block);
                int n = (int) Math.min(block.length, left);
                out.write(block, 0, n);
                left -= n;
            }
        }
        return new TestFile(path, size);
    }

    /** The SHA-256 of the whole file, in hexadecimal. */
    public String sha256() {
        return sha256(0, size);
    }

    /** The SHA-256 of {@code length} bytes from {@code position}, in hexadecimal. */
    public String sha256(long position, long length) {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            InputStream in = Channels.newInputStream(ch.position(position));
            return sha256(in, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bytes of a slice; for slices small enough to hold. */
    public byte[] bytes(long position, int length) throws IOException {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(length);
            while (b.hasRemaining() && ch.read(b, position + b.position()) >= 0) {
                // reads until full
            }
            return b.array();
        }
    }

    /** The SHA-256 of what {@code in} holds, in hexadecimal; {@code in} is read to its end and closed. */
    public static String sha256(InputStream in) throws IOException {
        return sha256(in, Long.MAX_VALUE);
    }

    private static String sha256(InputStream in, long limit) {
        try (DigestInputStream digest = new DigestInputStream(in, MessageDigest.getInstance("SHA-256"))) {
            byte[] buf = new byte[64 * 1024];
            long left = limit;
            for (int n; left > 0 && (n = digest.read(buf, 0, (int) Math.min(buf.length, left))) >= 0; ) {
                left -= n;
            }
            return HexFormat.of().formatHex(digest.getMessageDigest().digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The SHA-256 of a file, in hexadecimal. */
    public static String sha256(Path file) throws IOException {
        return sha256(Files.newInputStream(file));
    }

    /**
     * How many of this process's file descriptors are open on this file, or -1 where that cannot be told
     * (no {@code /proc/self/fd}).
     */
    public long openHandles() throws IOException {
        Path fds = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fds)) {
            return -1;
        }
        Path real = path.toRealPath();
        long n = 0;
        try (var list = Files.list(fds)) {
            for (Path fd : list.toList()) {
                try {
                    if (Files.readSymbolicLink(fd).equals(real)) {
                        n++;
                    }
                } catch (IOException gone) {
                    // closed while listed
                }
            }
        }
        return n;
    }
}
