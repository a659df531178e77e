package dev.weft.websocket.jakarta.session;

import dev.weft.httpserver.websocket.WebSocketSession;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.nio.ByteBuffer;

/**
 * The streams of {@code RemoteEndpoint.Basic.getSendStream()} and {@code getSendWriter()}: what is written goes
 * out as parts of one message, a buffer at a time; {@code close()} ends the message.
 */
final class PartStreams {

    /** Bytes or chars gathered before a part is sent. */
    static final int PART_SIZE = 8192;

    private PartStreams() {
    }

    /** A binary message written as a stream. */
    static final class Binary extends OutputStream {
        private final WebSocketSession ws;
        private final byte[] buffer = new byte[PART_SIZE];
        private int used;
        private boolean closed;

        Binary(WebSocketSession ws) {
            this.ws = ws;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("stream closed");
            }
            while (len > 0) {
                if (used == buffer.length) {
                    ws.sendBinary(ByteBuffer.wrap(buffer.clone(), 0, used), false);
                    used = 0;
                }
                int n = Math.min(len, buffer.length - used);
                System.arraycopy(b, off, buffer, used, n);
                used += n;
                off += n;
                len -= n;
            }
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                ws.sendBinary(ByteBuffer.wrap(buffer, 0, used), true);
            }
        }
    }

    /** A text message written as a stream; a part never ends inside a surrogate pair. */
    static final class Text extends Writer {
        private final WebSocketSession ws;
        private final StringBuilder buffer = new StringBuilder();
        private boolean closed;

        Text(WebSocketSession ws) {
            this.ws = ws;
        }

        @Override
        public void write(char[] cbuf, int off, int len) throws IOException {
            if (closed) {
                throw new IOException("writer closed");
            }
            buffer.append(cbuf, off, len);
            while (buffer.length() > PART_SIZE) {
                int end = PART_SIZE;
                if (Character.isHighSurrogate(buffer.charAt(end - 1))) {
                    end--;
                }
                ws.sendText(buffer.substring(0, end), false);
                buffer.delete(0, end);
            }
        }

        @Override
        public void flush() {
            // parts go out when full; the rest ends the message on close
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                ws.sendText(buffer.toString(), true);
                buffer.setLength(0);
            }
        }
    }
}
