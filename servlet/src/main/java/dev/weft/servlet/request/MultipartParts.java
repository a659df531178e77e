package dev.weft.servlet.request;

import dev.weft.httpserver.forms.FormException;
import dev.weft.httpserver.forms.MultipartLimits;
import dev.weft.httpserver.forms.MultipartPart;
import dev.weft.httpserver.forms.MultipartReader;
import jakarta.servlet.MultipartConfigElement;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@code multipart/form-data} body into {@link UploadedPart}s with the engine's streaming
 * {@link MultipartReader}, under the servlet's {@link MultipartConfigElement}: {@code maxFileSize} bounds each
 * part, {@code maxRequestSize} the whole body (a declared length over it is refused before reading), and parts
 * above {@code fileSizeThreshold} go to temporary files in the location. Whatever fails, every temporary file
 * written so far is removed. Stateless.
 */
final class MultipartParts {

    static final String TEMP_PREFIX = "weft-upload-";

    private MultipartParts() {
    }

    /**
     * The parts of the body.
     *
     * @param location the directory for temporary files (the config's location, resolved)
     * @throws RequestInputException 400 for malformed data, 413 past a limit, 415 for another media type
     */
    static List<UploadedPart> read(InputStream body, String contentType, long declaredLength,
                                   MultipartConfigElement config, Path location) throws IOException {
        long maxFile = config.getMaxFileSize() < 0 ? Long.MAX_VALUE : config.getMaxFileSize();
        long maxRequest = config.getMaxRequestSize() < 0 ? Long.MAX_VALUE : config.getMaxRequestSize();
        int threshold = Math.max(0, config.getFileSizeThreshold());
        MultipartLimits defaults = MultipartLimits.defaults();
        MultipartLimits limits = MultipartLimits.builder()
                .maxParts(defaults.maxParts())
                .maxPartHeaderSize(defaults.maxPartHeaderSize())
                .maxPartSize(maxFile)
                .maxTotalSize(maxRequest)
                .build();
        List<UploadedPart> parts = new ArrayList<>();
        try {
            if (declaredLength > maxRequest) {
                throw new FormException(413, "the request is larger than the maximum size of " + maxRequest + " bytes");
            }
            MultipartReader reader = new MultipartReader(body, MultipartReader.boundary(contentType), limits);
            for (MultipartPart p; (p = reader.next()) != null; ) {
                parts.add(store(p, threshold, location));
            }
            return parts;
        } catch (FormException e) {
            deleteAll(parts);
            String message = e.statusCode() == 413
                    ? "multipart request exceeds a size limit: " + e.getMessage()
                    : "multipart request rejected: " + e.getMessage();
            throw new RequestInputException(e.statusCode(), message, e);
        } catch (IOException | RuntimeException e) {
            deleteAll(parts);
            throw e;
        }
    }

    private static UploadedPart store(MultipartPart p, int threshold, Path location) throws IOException {
        InputStream in = p.body();
        ByteArrayOutputStream memory = new ByteArrayOutputStream(Math.min(threshold, 8192) + 1);
        byte[] buf = new byte[8192];
        long size = 0;
        Path file = null;
        OutputStream out = memory;
        try {
            for (int n; (n = in.read(buf)) >= 0; ) {
                size += n;
                if (file == null && size > threshold) {
                    Files.createDirectories(location);
                    file = Files.createTempFile(location, TEMP_PREFIX, ".part");
                    out = Files.newOutputStream(file);
                    memory.writeTo(out);
                }
                out.write(buf, 0, n);
            }
        } catch (IOException | RuntimeException e) {
            if (file != null) {
                out.close();
                Files.deleteIfExists(file);
            }
            throw e;
        }
        if (file != null) {
            out.close();
        }
        return new UploadedPart(p.name(), p.filename().orElse(null), p.headers(), location,
                file == null ? memory.toByteArray() : null, file, size);
    }

    /** Removes the parts' temporary files. */
    static void deleteAll(List<UploadedPart> parts) {
        for (UploadedPart part : parts) {
            try {
                part.delete();
            } catch (IOException e) {
                // best effort: the file is in the container's temporary directory
            }
        }
    }
}
