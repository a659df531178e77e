package dev.weft.httpserver.core;

import dev.weft.httpserver.testing.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link ConnectionOutput#write(FileRegion)}: copied through the stream without a socket channel (TLS), read into
 * the buffer when it fits there, and sent by {@code FileChannel.transferTo} over a real socket channel, where the
 * transfer waits for a client that is not reading by parking (not spinning) and fails as any write does.
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ConnectionOutputFileRegionTest {

    private static final byte[] HEAD = "HTTP/1.1 200 OK\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private Path path;
    private byte[] content;
    private FileChannel file;

    @BeforeEach
    void createFile() throws IOException {
        content = new byte[32 * 1024 * 1024];
        new Random(11).nextBytes(content);
        path = Files.createTempFile("weft-region", ".bin");
        Files.write(path, content);
        file = FileChannel.open(path, StandardOpenOption.READ);
    }

    @AfterEach
    void deleteFile() throws IOException {
        file.close();
        Files.deleteIfExists(path);
    }

    /** The socket side of an output without a channel: records every write. */
    private static final class Sink extends OutputStream {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final List<Integer> writeSizes = new ArrayList<>();

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            writeSizes.add(len);
            bytes.write(b, off, len);
        }
    }

    private byte[] slice(long position, long count) {
        return Arrays.copyOfRange(content, (int) position, (int) (position + count));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }

    @Test
    void withoutAChannelARegionIsCopiedAfterWhatIsBuffered() throws IOException {
        Sink sink = new Sink();
        ConnectionOutput out = new ConnectionOutput(sink, 1024);
        out.write(HEAD);

        out.write(new FileRegion(file, 5, 200_000));
        out.flush();

        assertArrayEquals(concat(HEAD, slice(5, 200_000)), sink.bytes.toByteArray());
        assertEquals(HEAD.length + 200_000, out.takeBytesWritten());
        assertEquals(0, out.takeBytesTransferred());
        assertEquals(0, file.position(), "the channel's position moved");
    }

    @Test
    void aRegionThatFitsWhatIsLeftOfTheBufferLeavesWithTheHeadInOneWrite() throws IOException {
        Sink sink = new Sink();
        ConnectionOutput out = new ConnectionOutput(sink, 1024);
        out.write(HEAD);

        out.write(new FileRegion(file, 1000, 1024 - HEAD.length));
        out.flush();

        assertEquals(List.of(1024), sink.writeSizes);
        assertArrayEquals(concat(HEAD, slice(1000, 1024 - HEAD.length)), sink.bytes.toByteArray());
    }

    @Test
    void aFileThatEndsBeforeItsRegionFailsTheWriteButNotTheConnection() throws IOException {
        ConnectionOutput out = new ConnectionOutput(new Sink(), 1024);
        long size = content.length;

        assertThrows(EOFException.class, () -> out.write(new FileRegion(file, size - 10, 20)));
        assertThrows(EOFException.class, () -> out.write(new FileRegion(file, size - 100_000, 200_000)));
        assertFalse(out.failed());
    }

    /** A connected pair: the server end as the engine has it (a channel in blocking mode), and a client. */
    private record Pair(SocketChannel server, Socket client) implements AutoCloseable {
        static Pair open(int clientReceiveBuffer) throws IOException {
            try (ServerSocketChannel listener = ServerSocketChannel.open()) {
                listener.bind(new InetSocketAddress("127.0.0.1", 0));
                Socket client = new Socket();
                client.setReceiveBufferSize(clientReceiveBuffer);
                client.connect(listener.getLocalAddress());
                return new Pair(listener.accept(), client);
            }
        }

        @Override
        public void close() throws IOException {
            client.close();
            server.close();
        }
    }

    @Test
    void withAChannelARegionGoesByTransferToAndWaitsForAClientThatIsNotReadingByParking() throws Exception {
        try (Pair pair = Pair.open(64 * 1024)) {
            Socket socket = pair.server().socket();
            ConnectionOutput out = new ConnectionOutput(socket.getOutputStream(), 1024, DataRateMeter.unlimited(),
                    pair.server());
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long[] counts = new long[2];
            // A virtual thread, as a connection's: the socket becomes non-blocking beneath its channel, where
            // transferTo never waits for room.
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    out.write(HEAD);
                    out.write(new FileRegion(file, 3, content.length - 3));
                    out.flush();
                    counts[0] = out.takeBytesWritten();
                    counts[1] = out.takeBytesTransferred();
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            // 32 MB cannot fit in the socket buffers: until the client reads, the writer waits, parked.
            Await.until("the transfer to wait for the client", () -> writer.getState() == Thread.State.WAITING
                    && out.writeStartedNanos() != 0);

            byte[] received = pair.client().getInputStream().readNBytes(HEAD.length + content.length - 3);
            writer.join();

            assertNull(failure.get());
            assertArrayEquals(concat(HEAD, slice(3, content.length - 3)), received);
            assertEquals(HEAD.length + content.length - 3, counts[0]);
            long transferred = counts[1];
            long waits = counts[0] - HEAD.length - transferred;
            assertTrue(waits >= 1, "the transfer never waited for room: " + transferred);
            assertTrue(transferred >= (content.length - 3) * 99L / 100, "copied rather than transferred: "
                    + transferred);
            assertFalse(out.failed());
        }
    }

    @Test
    void aTransferToAClientThatResetMarksTheOutputFailed() throws Exception {
        try (Pair pair = Pair.open(64 * 1024)) {
            ConnectionOutput out = new ConnectionOutput(pair.server().socket().getOutputStream(), 1024,
                    DataRateMeter.unlimited(), pair.server());
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    out.write(new FileRegion(file, 0, content.length));
                } catch (Throwable e) {
                    failure.set(e);
                }
            });
            Await.until("the transfer to wait for the client", () -> writer.getState() == Thread.State.WAITING);
            pair.client().setOption(StandardSocketOptions.SO_LINGER, 0);
            pair.client().close();
            writer.join();

            assertInstanceOf(IOException.class, failure.get());
            assertTrue(out.failed(), "a write the client broke is a failure of the connection");
        }
    }
}
