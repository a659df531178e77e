package dev.weft.servlet.request;

import com.sun.net.httpserver.Headers;
import jakarta.servlet.http.Part;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * One part of a {@code multipart/form-data} request ({@link Part}): its fields, and its content either in memory
 * (up to the file size threshold) or in a temporary file under the multipart location, which is deleted when
 * the request ends unless {@link #write} moved it.
 */
final class UploadedPart implements Part {

    private final String name;
    private final String submittedFileName;
    private final Headers headers;
    private final Path location;
    private final byte[] bytes;
    private Path file;
    private final long size;

    UploadedPart(String name, String submittedFileName, Headers headers, Path location, byte[] bytes, Path file,
                 long size) {
        this.name = name;
        this.submittedFileName = submittedFileName;
        this.headers = headers;
        this.location = location;
        this.bytes = bytes;
        this.file = file;
        this.size = size;
    }

    @Override
    public InputStream getInputStream() throws IOException {
        if (bytes != null) {
            return new ByteArrayInputStream(bytes);
        }
        if (file == null) {
            throw new IOException("part " + name + " was deleted");
        }
        return Files.newInputStream(file);
    }

    @Override
    public String getContentType() {
        return headers.getFirst("Content-Type");
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public String getSubmittedFileName() {
        return submittedFileName;
    }

    @Override
    public long getSize() {
        return size;
    }

    /** Writes the content to {@code fileName}, relative to the multipart location unless absolute. */
    @Override
    public void write(String fileName) throws IOException {
        Path target = location.resolve(fileName);
        if (file != null) {
            Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
            file = target;
            return;
        }
        Files.write(target, bytes != null ? bytes : new byte[0]);
    }

    @Override
    public void delete() throws IOException {
        if (file != null && file.getFileName().toString().startsWith(MultipartParts.TEMP_PREFIX)) {
            Files.deleteIfExists(file);
            file = null;
        }
    }

    @Override
    public String getHeader(String name) {
        return headers.getFirst(name);
    }

    @Override
    public Collection<String> getHeaders(String name) {
        List<String> values = headers.get(name);
        return values == null ? List.of() : List.copyOf(values);
    }

    @Override
    public Collection<String> getHeaderNames() {
        List<String> names = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : headers.entrySet()) {
            names.add(e.getKey());
        }
        return names;
    }

    /** The content as text, for the parameter a part without a file name also is (§3.2). */
    String text(java.nio.charset.Charset charset) throws IOException {
        try (InputStream in = getInputStream()) {
            return new String(in.readAllBytes(), charset);
        }
    }
}
