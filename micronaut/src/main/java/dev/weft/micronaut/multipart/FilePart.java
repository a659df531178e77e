package dev.weft.micronaut.multipart;

import io.micronaut.http.MediaType;
import io.micronaut.http.exceptions.ContentLengthExceededException;
import io.micronaut.http.multipart.FileUpload;

import java.util.Optional;

/** What every file part of a form has, read whole or streamed: its field name, file name and media type. */
abstract class FilePart implements FileUpload {

    private final String name;
    private final String filename;
    private final MediaType contentType;

    FilePart(String name, String filename, MediaType contentType) {
        this.name = name;
        this.filename = filename;
        this.contentType = contentType;
    }

    /** The failure of a file part over {@code micronaut.server.multipart.max-file-size}, worded as on Netty. */
    static ContentLengthExceededException tooLarge(String name, long maxFileSize) {
        return new ContentLengthExceededException("The part named [" + name
                + "] exceeds the maximum allowed content length [" + maxFileSize + "]");
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
}
