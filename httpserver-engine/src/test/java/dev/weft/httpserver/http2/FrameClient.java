package dev.weft.httpserver.http2;

import dev.weft.httpserver.hpack.HeaderField;
import dev.weft.httpserver.hpack.HpackDecoder;
import dev.weft.httpserver.hpack.HpackEncoder;
import dev.weft.httpserver.testing.Await;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A frame-level HTTP/2 test client for cases no ordinary client will produce (floods, broken limits): sends
 * exactly the frames a test writes and reads back what the server sends. Cleartext, prior knowledge.
 */
final class FrameClient implements AutoCloseable {

    private final Socket socket;
    private final OutputStream out;
    private final FrameReader reader;
    private final FrameWriter writer = new FrameWriter();
    private final HpackEncoder encoder = new HpackEncoder();
    private final HpackDecoder decoder = new HpackDecoder();

    private FrameClient(Socket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.reader = new FrameReader(new BufferedInputStream(socket.getInputStream()));
        reader.maxFrameSize(Http2Settings.MAX_MAX_FRAME_SIZE);
    }

    /** Connects, sends the preface and an empty SETTINGS frame. */
    static FrameClient connect(int port) throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(5000);
        FrameClient c = new FrameClient(s);
        c.out.write(Preface.bytes());
        c.send(new Frame.SettingsFrame(false, List.of()));
        return c;
    }

    void send(Frame frame) throws IOException {
        out.write(writer.encode(frame));
        out.flush();
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The header block of a GET for {@code path}. */
    byte[] requestBlock(String method, String path, HeaderField... extra) {
        List<HeaderField> fields = new ArrayList<>(List.of(new HeaderField(":method", method),
                new HeaderField(":scheme", "http"), new HeaderField(":path", path),
                new HeaderField(":authority", "localhost")));
        fields.addAll(List.of(extra));
        return encoder.encode(fields);
    }

    /** The header block of exactly these fields, in this order (keeps the client's HPACK context). */
    byte[] block(List<HeaderField> fields) {
        return encoder.encode(fields);
    }

    /** Decodes a header block the server sent; call for every HEADERS frame, in arrival order. */
    List<HeaderField> fields(Frame.HeadersFrame headers) throws IOException {
        return decodeQuietly(headers.fragment());
    }

    /** Sends a complete request without a body on {@code streamId}. */
    void get(int streamId, String path) throws IOException {
        send(new Frame.HeadersFrame(streamId, requestBlock("GET", path), true, true));
    }

    /** The next frame, or null when the server closed the connection. */
    Frame next() throws IOException {
        try {
            return reader.readFrame();
        } catch (java.net.SocketException e) {
            return null; // reset by the server after closing
        }
    }

    /** Reads frames until one of this type arrives (null if the connection closes first). */
    @SuppressWarnings("unchecked")
    <F extends Frame> F await(Class<F> type) throws IOException {
        for (Frame f; (f = next()) != null; ) {
            if (f instanceof Frame.HeadersFrame h) {
                decodeQuietly(h.fragment()); // keeps the HPACK context in sync
            }
            if (type.isInstance(f)) {
                return (F) f;
            }
        }
        return null;
    }

    /** Reads until the response on {@code streamId} ends; returns its status and body. Frames of other
     * streams read meanwhile are kept for their own {@code response} call. */
    Response response(int streamId) throws IOException {
        String status = null;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            Arrived a = nextFor(streamId);
            if (a == null) {
                throw new IOException("connection closed before stream " + streamId + " ended");
            }
            Frame f = a.frame();
            if (f instanceof Frame.HeadersFrame h) {
                for (HeaderField field : a.fields()) {
                    if (field.name().equals(":status") && (status == null || status.startsWith("1"))) {
                        status = field.value();
                    }
                }
                if (h.endStream()) {
                    return new Response(status == null ? -1 : Integer.parseInt(status), body.toString(), null);
                }
            } else if (f instanceof Frame.DataFrame d) {
                body.write(d.data(), 0, d.data().length);
                if (d.endStream()) {
                    return new Response(status == null ? -1 : Integer.parseInt(status), body.toString(), null);
                }
            } else if (f instanceof Frame.RstStreamFrame r) {
                return new Response(status == null ? -1 : Integer.parseInt(status), body.toString(), r.error());
            }
        }
    }

    /** A frame as it arrived, with its header block decoded in arrival order (HPACK is stateful). */
    private record Arrived(Frame frame, List<HeaderField> fields) {
    }

    private final java.util.ArrayDeque<Arrived> stash = new java.util.ArrayDeque<>();

    /** The next stashed or newly read frame of this stream; frames of other streams are stashed. */
    private Arrived nextFor(int streamId) throws IOException {
        for (var it = stash.iterator(); it.hasNext(); ) {
            Arrived a = it.next();
            if (a.frame().streamId() == streamId) {
                it.remove();
                return a;
            }
        }
        for (Frame f; (f = next()) != null; ) {
            List<HeaderField> fields = f instanceof Frame.HeadersFrame h ? decodeQuietly(h.fragment()) : List.of();
            Arrived a = new Arrived(f, fields);
            if (f.streamId() == streamId) {
                return a;
            }
            if (f.streamId() != 0) {
                stash.add(a);
            }
        }
        return null;
    }

    private List<HeaderField> decodeQuietly(byte[] block) throws IOException {
        try {
            return decoder.decode(block);
        } catch (dev.weft.httpserver.hpack.HpackException e) {
            throw new IOException(e);
        }
    }

    /**
     * Whether the server closes the connection, reading and dropping frames; waits at most
     * {@link Await#DEFAULT_LIMIT}, a guard against a hang rather than a bound the server must meet.
     */
    boolean closed() throws IOException {
        return closedWithin(Await.DEFAULT_LIMIT);
    }

    /** Whether the server closes the connection within {@code within}, reading and dropping frames. */
    boolean closedWithin(Duration within) throws IOException {
        socket.setSoTimeout((int) within.toMillis());
        try {
            while (next() != null) {
                // drain
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** A response as seen on one stream; {@code reset} is set when the stream was reset instead. */
    record Response(int status, String body, ErrorCode reset) {
    }
}
