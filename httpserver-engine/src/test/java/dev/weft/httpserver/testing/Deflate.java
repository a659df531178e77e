package dev.weft.httpserver.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The test client's permessage-deflate: raw DEFLATE with the sync-flush tail removed (RFC 7692 §7.2.1). */
public final class Deflate {

    private Deflate() {
    }

    /** One message compressed with a fresh compressor. */
    public static byte[] compress(byte[] data) {
        return compress(new Deflater(Deflater.DEFAULT_COMPRESSION, true), data);
    }

    /** One message compressed with {@code d}, which keeps its context for the next message. */
    public static byte[] compress(Deflater d, byte[] data) {
        d.setInput(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        do {
            n = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
            out.write(buf, 0, n);
        } while (n == buf.length);
        byte[] b = out.toByteArray();
        assertEquals(0xff, b[b.length - 1] & 0xff);
        return Arrays.copyOf(b, b.length - 4);
    }

    /** The payload of a server frame that must have RSV1 set, inflated with a fresh inflater. */
    public static byte[] inflate(RawWsClient.Frame f) {
        assertEquals(4, f.rsv(), "RSV1 (compressed) expected");
        return inflate(new Inflater(true), f.payload());
    }

    public static String inflateText(RawWsClient.Frame f) {
        return new String(inflate(f), StandardCharsets.UTF_8);
    }

    public static byte[] inflate(Inflater inf, byte[] payload) {
        byte[] in = Arrays.copyOf(payload, payload.length + 4);
        in[payload.length + 2] = (byte) 0xff;
        in[payload.length + 3] = (byte) 0xff;
        inf.setInput(in);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        try {
            int n;
            while ((n = inf.inflate(buf)) > 0) {
                out.write(buf, 0, n);
            }
        } catch (DataFormatException e) {
            throw new AssertionError("server sent invalid DEFLATE data", e);
        }
        return out.toByteArray();
    }
}
