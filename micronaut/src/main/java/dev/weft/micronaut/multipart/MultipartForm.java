package dev.weft.micronaut.multipart;

import dev.weft.httpserver.forms.FormException;
import dev.weft.httpserver.forms.MultipartLimits;
import dev.weft.httpserver.forms.MultipartPart;
import dev.weft.httpserver.forms.MultipartReader;
import dev.weft.micronaut.http.RequestBody;
import dev.weft.micronaut.http.WeftHttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.multipart.CompletedFileUpload;
import io.micronaut.http.multipart.StreamingFileUpload;
import io.micronaut.http.exceptions.HttpStatusException;
import io.micronaut.http.HttpStatus;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The parts of one {@code multipart/form-data} request, read from its body in order with the engine's
 * {@link MultipartReader} and kept on the request: fields as text, files as {@link CompletedFileUpload}s (each at
 * most {@code micronaut.server.multipart.max-file-size}, else {@code 413}). A file asked for as a
 * {@link StreamingFileUpload} is not read ahead: reading stops at it, and the route reads it from the
 * connection; parts after it are not available to other arguments.
 */
public final class MultipartForm {

    private static final String ATTRIBUTE = MultipartForm.class.getName();

    private final MultipartReader reader;
    private final long maxFileSize;
    private final Executor ioExecutor;
    private final Map<String, List<Object>> parts = new LinkedHashMap<>();
    /** Held while a reader takes parts from the connection. */
    private final ReentrantLock lock = new ReentrantLock();
    private boolean done;
    private WeftStreamingFileUpload streaming;

    private MultipartForm(MultipartReader reader, long maxFileSize, Executor ioExecutor) {
        this.reader = reader;
        this.maxFileSize = maxFileSize;
        this.ioExecutor = ioExecutor;
    }

    /** The form of {@code request}, started on first use. */
    public static MultipartForm of(WeftHttpRequest request, MultipartSettings settings) {
        Object existing = request.getAttributes().getValue(ATTRIBUTE);
        if (existing instanceof MultipartForm form) {
            return form;
        }
        String contentType = request.getHeaders().get("Content-Type");
        try {
            InputStream body = request.body().byteBody().toInputStream();
            MultipartReader reader = new MultipartReader(body, MultipartReader.boundary(contentType),
                    settings.limits());
            MultipartForm form = new MultipartForm(reader, settings.maxFileSize(), settings.ioExecutor());
            request.setAttribute(ATTRIBUTE, form);
            return form;
        } catch (FormException ex) {
            throw new HttpStatusException(HttpStatus.valueOf(ex.statusCode()), ex.getMessage());
        }
    }

    /** Every field and completed file, reading the rest of the body. */
    public Map<String, List<Object>> all() {
        lock.lock();
        try {
            while (readNext() != null) {
                // reads on
            }
            return parts;
        } finally {
            lock.unlock();
        }
    }

    /** The values of the part {@code name}, reading as far as it. */
    public List<Object> values(String name) {
        lock.lock();
        try {
            while (!parts.containsKey(name) && readNext() != null) {
                // reads on
            }
            return parts.getOrDefault(name, List.of());
        } finally {
            lock.unlock();
        }
    }

    /**
     * The file part {@code name} as a stream the route reads from the connection, or {@code null} if the body
     * has no such part (or it was read already).
     */
    public StreamingFileUpload streaming(String name) {
        lock.lock();
        try {
            return streamingLocked(name);
        } finally {
            lock.unlock();
        }
    }

    private StreamingFileUpload streamingLocked(String name) {
        if (streaming != null) {
            return streaming.getName().equals(name) ? streaming : null;
        }
        while (!done) {
            MultipartPart part = nextPart();
            if (part == null) {
                return null;
            }
            if (part.name().equals(name) && part.filename().isPresent()) {
                streaming = new WeftStreamingFileUpload(part, mediaType(part), maxFileSize, ioExecutor);
                done = true;
                return streaming;
            }
            keep(part);
        }
        return null;
    }

    private String readNext() {
        if (done) {
            return null;
        }
        MultipartPart part = nextPart();
        if (part == null) {
            return null;
        }
        keep(part);
        return part.name();
    }

    private MultipartPart nextPart() {
        try {
            MultipartPart part = reader.next();
            if (part == null) {
                done = true;
            }
            return part;
        } catch (FormException ex) {
            done = true;
            throw new HttpStatusException(HttpStatus.valueOf(ex.statusCode()), ex.getMessage());
        } catch (IOException ex) {
            done = true;
            throw RequestBody.unchecked(ex);
        }
    }

    private void keep(MultipartPart part) {
        try {
            Object value;
            if (part.filename().isPresent()) {
                byte[] bytes = readFile(part);
                value = new WeftCompletedFileUpload(part.name(), part.filename().get(), mediaType(part), bytes);
            } else {
                value = part.text();
            }
            parts.computeIfAbsent(part.name(), n -> new ArrayList<>(1)).add(value);
        } catch (IOException ex) {
            throw RequestBody.unchecked(ex);
        }
    }

    private byte[] readFile(MultipartPart part) throws IOException {
        byte[] bytes = part.body().readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxFileSize + 1));
        if (bytes.length > maxFileSize) {
            throw FilePart.tooLarge(part.name(), maxFileSize);
        }
        return bytes;
    }

    static MediaType mediaType(MultipartPart part) {
        try {
            return MediaType.of(part.contentType());
        } catch (IllegalArgumentException ex) {
            return MediaType.APPLICATION_OCTET_STREAM_TYPE;
        }
    }
}
