package dev.weft.servlet.response;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;

/**
 * Encodes characters into the response output as they are written, with no buffer of its own, so the response
 * buffer alone decides when the response commits. A surrogate pair split across two writes is kept until its
 * second half arrives; characters the charset cannot represent become its replacement (as {@code String.getBytes}
 * does). Not thread-safe (the {@code PrintWriter} around it synchronizes).
 */
final class EncodingWriter extends Writer {

    private final OutputStream out;
    private final CharsetEncoder encoder;
    private final ByteBuffer bytes = ByteBuffer.allocate(1024);
    private char pendingHighSurrogate;

    EncodingWriter(OutputStream out, Charset charset) {
        this.out = out;
        this.encoder = charset.newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
        encode(CharBuffer.wrap(cbuf, off, len));
    }

    @Override
    public void write(String str, int off, int len) throws IOException {
        encode(CharBuffer.wrap(str, off, off + len));
    }

    @Override
    public void write(int c) throws IOException {
        encode(CharBuffer.wrap(new char[] {(char) c}));
    }

    private void encode(CharBuffer in) throws IOException {
        if (pendingHighSurrogate != 0) {
            CharBuffer joined = CharBuffer.allocate(in.remaining() + 1);
            joined.put(pendingHighSurrogate).put(in).flip();
            pendingHighSurrogate = 0;
            in = joined;
        }
        if (in.hasRemaining() && Character.isHighSurrogate(in.get(in.limit() - 1))) {
            pendingHighSurrogate = in.get(in.limit() - 1);
            in.limit(in.limit() - 1);
        }
        CoderResult r;
        do {
            r = encoder.encode(in, bytes, false);
            drain();
        } while (r.isOverflow());
    }

    private void drain() throws IOException {
        bytes.flip();
        if (bytes.hasRemaining()) {
            out.write(bytes.array(), 0, bytes.limit());
        }
        bytes.clear();
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        if (pendingHighSurrogate != 0) {
            pendingHighSurrogate = 0;
            encode(CharBuffer.wrap("\uFFFD"));
        }
        out.close();
    }
}
