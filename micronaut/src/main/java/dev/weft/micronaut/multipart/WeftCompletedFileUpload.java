package dev.weft.micronaut.multipart;

import io.micronaut.http.MediaType;
import io.micronaut.http.multipart.CompletedFileUpload;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Optional;

/** A file part of a multipart request, read whole (within {@code micronaut.server.multipart.max-file-size}). */
final class WeftCompletedFileUpload implements CompletedFileUpload {

    private final String name;
    private final String filename;
    private final MediaType contentType;
    private final byte[] bytes;

    WeftCompletedFileUpload(String name, String filename, MediaType contentType, byte[] bytes) {
        this.name = name;
        this.filename = filename;
        this.contentType = contentType;
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
    public Optional<MediaType> getContentType() {
        return Optional.ofNullable(contentType);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getFilename() {
        return filename;
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
        return "CompletedFileUpload[" + name + ", " + filename + ", " + bytes.length + " bytes]";
    }
}
