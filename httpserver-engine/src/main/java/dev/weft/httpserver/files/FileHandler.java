package dev.weft.httpserver.files;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.SettingChecks;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Serves the files under one directory: GET and HEAD ({@code 405} otherwise), content types from a built-in
 * table, {@code ETag}/{@code Last-Modified} with conditional requests (RFC 9110 §13: {@code 304}, {@code 412}),
 * byte ranges (§14: {@code 206}, {@code multipart/byteranges}, {@code If-Range}, {@code 416}), an index file or an
 * HTML listing for directories ({@code 301} to add the trailing slash), and {@code 404} for anything outside the
 * root, hidden, or reached through a symbolic link. Files are streamed, never loaded whole: on cleartext HTTP/1.1
 * straight from the file to the socket ({@link Weft#sendFile}), elsewhere through a buffer.
 *
 * <p>Mount it on a context; the path below the context's path names the file. Immutable and thread-safe; build
 * one with {@link #builder(Path)}.
 */
public final class FileHandler implements HttpHandler {

    private static final System.Logger LOG = System.getLogger("dev.weft.httpserver.files");
    private static final byte[] NOT_FOUND_BODY = "404 Not Found\n".getBytes(StandardCharsets.US_ASCII);

    private final Path root;
    private final PathResolver resolver;
    private final ContentTypes contentTypes;
    private final boolean directoryListing;
    private final List<String> indexFiles;
    private final String textCharset;
    private final int maxRanges;
    private final int maxListingEntries;

    private FileHandler(Builder b, Path root) {
        this.root = root;
        this.resolver = new PathResolver(root);
        this.contentTypes = ContentTypes.withExtra(b.contentTypes);
        this.directoryListing = b.directoryListing;
        this.indexFiles = List.copyOf(b.indexFiles);
        this.textCharset = b.textCharset;
        this.maxRanges = b.maxRanges;
        this.maxListingEntries = b.maxListingEntries;
    }

    /** A builder serving {@code root}, which must be an existing directory. */
    public static Builder builder(Path root) {
        return new Builder(root);
    }

    /** The real path of the directory served. */
    public Path root() {
        return root;
    }

    /** The media type this handler sends for a file named {@code fileName}, charset included. */
    public String contentTypeOf(String fileName) {
        String type = contentTypes.of(fileName);
        return textCharset != null && type.startsWith("text/") ? type + "; charset=" + textCharset : type;
    }

    @Override
    public void handle(HttpExchange exchange) throws IOException {
        try {
            String method = exchange.getRequestMethod();
            if (!method.equals("GET") && !method.equals("HEAD")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            URI uri = exchange.getRequestURI();
            String rawPath = uri.getRawPath();
            String prefix = exchange.getHttpContext().getPath();
            if (prefix.endsWith("/")) {
                prefix = prefix.substring(0, prefix.length() - 1);
            }
            if (rawPath == null || !rawPath.startsWith(prefix)) {
                notFound(exchange);
                return;
            }
            switch (resolver.resolve(rawPath.substring(prefix.length()))) {
                case PathResolver.NotFound n -> notFound(exchange);
                case PathResolver.Directory d when !d.trailingSlash() -> {
                    String query = uri.getRawQuery();
                    exchange.getResponseHeaders().set("Location", rawPath + "/" + (query == null ? "" : "?" + query));
                    exchange.sendResponseHeaders(301, -1);
                }
                case PathResolver.Directory d -> directory(exchange, d.path());
                case PathResolver.RegularFile f -> file(exchange, f);
            }
        } finally {
            exchange.close();
        }
    }

    private void directory(HttpExchange exchange, Path dir) throws IOException {
        for (String index : indexFiles) {
            if (resolver.child(dir, index) instanceof PathResolver.RegularFile f) {
                file(exchange, f);
                return;
            }
        }
        if (!directoryListing) {
            notFound(exchange);
            return;
        }
        String shown = exchange.getRequestURI().getPath();
        byte[] page = DirectoryListing.render(dir, shown, dir.equals(root), maxListingEntries);
        exchange.getResponseHeaders().set("Content-Type", "text/html; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        send(exchange, 200, page);
    }

    private void file(HttpExchange exchange, PathResolver.RegularFile f) throws IOException {
        Path file = f.path();
        long size = f.attributes().size();
        long lastModified = f.attributes().lastModifiedTime().to(TimeUnit.SECONDS);
        String etag = entityTag(f.attributes());
        Headers request = exchange.getRequestHeaders();
        Headers response = exchange.getResponseHeaders();
        response.set("Last-Modified", HttpDates.format(lastModified));
        response.set("ETag", etag);
        switch (Preconditions.evaluate(request, etag, lastModified)) {
            case NOT_MODIFIED -> {
                exchange.sendResponseHeaders(304, -1);
                return;
            }
            case PRECONDITION_FAILED -> {
                exchange.sendResponseHeaders(412, -1);
                return;
            }
            case PROCEED -> {
                // below
            }
        }
        String contentType = contentTypeOf(file.getFileName().toString());
        response.set("Accept-Ranges", "bytes");
        response.set("X-Content-Type-Options", "nosniff");
        ByteRanges.Result ranges = new ByteRanges.Ignore();
        // §14.2: Range is defined for GET only; If-Range may disable it
        if (exchange.getRequestMethod().equals("GET")
                && Preconditions.ifRangeHolds(request, etag, lastModified, System.currentTimeMillis() / 1000)) {
            ranges = ByteRanges.parse(request.getFirst("Range"), size, maxRanges);
        }
        boolean head = exchange.getRequestMethod().equals("HEAD");
        switch (ranges) {
            case ByteRanges.Unsatisfiable u -> {
                response.set("Content-Range", "bytes */" + size);
                exchange.sendResponseHeaders(416, -1);
            }
            case ByteRanges.Satisfiable s when s.ranges().size() == 1 -> {
                ByteRanges.Range r = s.ranges().get(0);
                response.set("Content-Type", contentType);
                response.set("Content-Range", "bytes " + r.first() + "-" + r.last() + "/" + size);
                exchange.sendResponseHeaders(206, r.length());
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                    Weft.sendFile(exchange, ch, r.first(), r.length()); // handle() closes the exchange, and the body
                }
            }
            case ByteRanges.Satisfiable s -> {
                FileBody.Multipart parts = FileBody.Multipart.of(s.ranges(), size, contentType);
                response.set("Content-Type", "multipart/byteranges; boundary=" + parts.boundary());
                exchange.sendResponseHeaders(206, parts.contentLength());
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
                     OutputStream out = exchange.getResponseBody()) {
                    parts.write(ch, s.ranges(), exchange, out);
                }
            }
            case ByteRanges.Ignore i -> {
                response.set("Content-Type", contentType);
                exchange.sendResponseHeaders(200, size == 0 ? -1 : size);
                if (head || size == 0) {
                    return;
                }
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
                    Weft.sendFile(exchange, ch, 0, size);
                }
            }
        }
    }

    /**
     * A strong validator (RFC 9110 §8.8.3) from the size, the full-precision modification time and the file's
     * identity (inode), so a file replaced by another of the same size and time still gets a new tag.
     */
    private static String entityTag(BasicFileAttributes a) {
        return "\"" + Long.toHexString(a.size()) + "-" + Long.toHexString(a.lastModifiedTime().to(TimeUnit.NANOSECONDS))
                + "-" + Integer.toHexString(Objects.hashCode(a.fileKey())) + "\"";
    }

    private static void notFound(HttpExchange exchange) throws IOException {
        LOG.log(Level.DEBUG, () -> "not found or not served: " + exchange.getRequestURI().getRawPath());
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        send(exchange, 404, NOT_FOUND_BODY);
    }

    private static void send(HttpExchange exchange, int code, byte[] body) throws IOException {
        exchange.sendResponseHeaders(code, body.length);
        if (!exchange.getRequestMethod().equals("HEAD")) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }

    /** Settings of a {@link FileHandler}; {@link #build()} validates them. */
    public static final class Builder {
        private final Path root;
        private final Map<String, String> contentTypes = new HashMap<>();
        private boolean directoryListing = true;
        private List<String> indexFiles = List.of("index.html", "index.htm");
        private String textCharset = "utf-8";
        private int maxRanges = 16;
        private int maxListingEntries = 10_000;

        private Builder(Path root) {
            this.root = Objects.requireNonNull(root, "root");
        }

        /** Whether a directory without an index file is answered with a listing (default true) or {@code 404}. */
        public Builder directoryListing(boolean on) {
            this.directoryListing = on;
            return this;
        }

        /** File names served for a directory, first found wins (default {@code index.html}, {@code index.htm}). */
        public Builder indexFiles(List<String> names) {
            for (String n : names) {
                if (!PathResolver.servableName(n)) {
                    throw new IllegalArgumentException("not a servable file name: " + n);
                }
            }
            this.indexFiles = List.copyOf(names);
            return this;
        }

        /** Adds or replaces the media type of an extension (without the dot), e.g. {@code ("gltf", "model/gltf+json")}. */
        public Builder contentType(String extension, String mediaType) {
            if (extension.isEmpty() || extension.contains(".") || mediaType.indexOf('/') <= 0) {
                throw new IllegalArgumentException("bad extension or media type: " + extension + " " + mediaType);
            }
            contentTypes.put(extension, mediaType);
            return this;
        }

        /** The charset parameter added to {@code text/*} types (default {@code utf-8}); {@code null} for none. */
        public Builder textCharset(String charset) {
            this.textCharset = charset;
            return this;
        }

        /** More ranges than this in one {@code Range} header get the whole file (default 16). */
        public Builder maxRanges(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxRanges must be at least 1, was " + max);
            }
            this.maxRanges = max;
            return this;
        }

        /** Most entries shown in a directory listing (default 10,000). */
        public Builder maxListingEntries(int max) {
            SettingChecks.notNegative("maxListingEntries", max);
            this.maxListingEntries = max;
            return this;
        }

        /**
         * The handler.
         *
         * @throws IllegalArgumentException if the root is not an existing directory
         */
        public FileHandler build() {
            Path real;
            try {
                real = root.toAbsolutePath().toRealPath();
            } catch (IOException e) {
                throw new IllegalArgumentException("directory does not exist: " + root, e);
            }
            if (!Files.isDirectory(real)) {
                throw new IllegalArgumentException("not a directory: " + root);
            }
            return new FileHandler(this, real);
        }
    }
}
