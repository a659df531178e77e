package dev.weft.httpserver.http1;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.ConnectionInput;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * How the unit tests of the HTTP/1 parsers hand bytes to a {@link ConnectionInput}: all at once into a
 * roomy buffer, or one byte per read into a tiny buffer that has to grow and compact, so that every
 * partial-read path of the parsers runs.
 */
enum ByteFeed {
    /** Every byte is available to the first read; the buffer never has to grow. */
    WHOLE {
        @Override
        InputStream stream(byte[] bytes) {
            return new ByteArrayInputStream(bytes);
        }

        @Override
        int initialBufferSize() {
            return 8 * 1024;
        }
    },
    /** Each read returns a single byte, into a 16-byte buffer. */
    ONE_BYTE_PER_READ {
        @Override
        InputStream stream(byte[] bytes) {
            return new OneBytePerRead(bytes);
        }

        @Override
        int initialBufferSize() {
            return 16;
        }
    };

    abstract InputStream stream(byte[] bytes);

    abstract int initialBufferSize();

    /** A connection input over {@code bytes}, sized the way {@code Connection} sizes it for {@code config}. */
    ConnectionInput input(byte[] bytes, ServerConfig config) {
        int max = Math.max(Math.max(config.maxRequestLineLength(), config.maxHeaderSize()),
                config.maxChunkLineLength()) + 64;
        ConnectionInput in = new ConnectionInput(stream(bytes), initialBufferSize(), max);
        // A fresh input has neither deadline nor read timeout, and would time out at once.
        in.readTimeout(10_000);
        return in;
    }

    ConnectionInput input(String latin1, ServerConfig config) {
        return input(latin1.getBytes(StandardCharsets.ISO_8859_1), config);
    }

    /** Never hands out more than one byte per read. */
    static final class OneBytePerRead extends InputStream {
        private final byte[] bytes;
        private int pos;

        OneBytePerRead(byte[] bytes) {
            this.bytes = bytes;
        }

        @Override
        public int read() {
            return pos < bytes.length ? bytes[pos++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (pos == bytes.length) {
                return -1;
            }
            b[off] = bytes[pos++];
            return 1;
        }
    }
}
