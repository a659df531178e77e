package dev.weft.httpserver.hpack;

import java.io.ByteArrayOutputStream;

/** A header block under construction, whose bytes can be read in place (no copy). */
public final class HeaderBlockBuffer extends ByteArrayOutputStream {

    public HeaderBlockBuffer() {
        super(64);
    }

    /** The buffer holding the block; its first {@link #size()} bytes are valid. */
    public byte[] array() {
        return buf;
    }
}
