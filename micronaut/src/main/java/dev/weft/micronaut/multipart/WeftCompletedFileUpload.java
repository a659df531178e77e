package dev.weft.micronaut.multipart;

import io.micronaut.http.MediaType;
import io.micronaut.http.multipart.CompletedFileUpload;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;

/** A file part of a multipart request, read whole (within {@code micronaut.server.multipart.max-file-size}). */
final class WeftCompletedFileUpload extends FilePart implements CompletedFileUpload {

    private final byte[] bytes;

    WeftCompletedFileUpload(String name, String filename, MediaType contentType, byte[] bytes) {
        super(name, filename, contentType);
        this.bytes = bytes;
    }

    @Override
    public InputStream getInputStream() {
        return new ByteArrayInputStream(bytes);
    }

    @Override
    public byte[] getBytes() {
        return bytes.clone();
    }

    @Override
    public ByteBuffer getByteBuffer() {
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    @Override
    public long getSize() {
        return bytes.length;
    }

    @Override
    public long getDefinedSize() {
        return bytes.length;
    }

    @Override
    public boolean isComplete() {
        return true;
    }

    @Override
    public String toString() {
        return "CompletedFileUpload[" + getName() + ", " + getFilename() + ", " + bytes.length + " bytes]";
    }
}
