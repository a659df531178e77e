package dev.weft.servlet.resource;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/**
 * One static resource of a context, found by {@link ResourceSet}: where it is, whether it is a directory, and
 * its size and modification time when known.
 *
 * @param path         the resource path within the context, starting with {@code /}
 * @param url          where it is ({@code file:} or {@code jar:})
 * @param directory    whether it is a directory
 * @param length       size in bytes, or -1
 * @param lastModified modification time in milliseconds since the epoch, or -1
 */
public record Resource(String path, URL url, boolean directory, long length, long lastModified) {

    /** Opens the content (not for a directory). */
    public InputStream open() throws IOException {
        return url.openStream();
    }

    /** The file the resource is, or null when it is no file of its own ({@code jar:}). */
    public Path file() {
        if (!"file".equalsIgnoreCase(url.getProtocol())) {
            return null;
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }
}
