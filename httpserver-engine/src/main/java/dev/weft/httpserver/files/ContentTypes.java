package dev.weft.httpserver.files;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The media type of a file from its extension, from a fixed table (the same on every platform, unlike
 * {@code Files.probeContentType}) plus the entries a {@link FileHandler.Builder} adds. Immutable.
 */
final class ContentTypes {

    /** What an unknown extension is served as (RFC 9110 §8.3: the recipient may sniff; we do not guess). */
    static final String DEFAULT = "application/octet-stream";

    private static final String[] TABLE = {
        // text (a charset parameter is added by the handler)
        "html", "text/html", "htm", "text/html", "css", "text/css", "txt", "text/plain", "text", "text/plain",
        "csv", "text/csv", "tsv", "text/tab-separated-values", "md", "text/markdown", "markdown", "text/markdown",
        "js", "text/javascript", "mjs", "text/javascript", "cjs", "text/javascript", "java", "text/plain",
        "c", "text/plain", "h", "text/plain", "py", "text/plain", "sh", "text/plain", "log", "text/plain",
        "ics", "text/calendar", "vtt", "text/vtt", "xml", "text/xml", "xsl", "text/xml",
        // structured data
        "json", "application/json", "map", "application/json", "webmanifest", "application/manifest+json",
        "jsonld", "application/ld+json", "yaml", "application/yaml", "yml", "application/yaml",
        "toml", "application/toml", "wasm", "application/wasm", "pdf", "application/pdf",
        "rss", "application/rss+xml", "atom", "application/atom+xml", "xhtml", "application/xhtml+xml",
        // archives and binaries
        "zip", "application/zip", "gz", "application/gzip", "tgz", "application/gzip",
        "tar", "application/x-tar", "bz2", "application/x-bzip2", "xz", "application/x-xz",
        "7z", "application/x-7z-compressed", "zst", "application/zstd", "jar", "application/java-archive",
        "class", "application/java-vm", "bin", "application/octet-stream", "exe", "application/octet-stream",
        "iso", "application/octet-stream", "dmg", "application/octet-stream",
        "doc", "application/msword", "xls", "application/vnd.ms-excel",
        "docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx", "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt", "application/vnd.oasis.opendocument.text", "epub", "application/epub+zip",
        // images
        "png", "image/png", "jpg", "image/jpeg", "jpeg", "image/jpeg", "gif", "image/gif", "webp", "image/webp",
        "avif", "image/avif", "svg", "image/svg+xml", "ico", "image/vnd.microsoft.icon", "bmp", "image/bmp",
        "tif", "image/tiff", "tiff", "image/tiff", "heic", "image/heic",
        // fonts
        "woff", "font/woff", "woff2", "font/woff2", "ttf", "font/ttf", "otf", "font/otf",
        // audio and video
        "mp3", "audio/mpeg", "ogg", "audio/ogg", "oga", "audio/ogg", "opus", "audio/ogg", "wav", "audio/wav",
        "flac", "audio/flac", "m4a", "audio/mp4", "aac", "audio/aac", "mp4", "video/mp4", "m4v", "video/mp4",
        "webm", "video/webm", "ogv", "video/ogg", "mov", "video/quicktime", "avi", "video/x-msvideo",
        "mkv", "video/x-matroska",
    };

    private final Map<String, String> byExtension;

    private ContentTypes(Map<String, String> byExtension) {
        this.byExtension = Map.copyOf(byExtension);
    }

    /** The built-in table with {@code extra} (extension without dot → media type) added or overriding. */
    static ContentTypes withExtra(Map<String, String> extra) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < TABLE.length; i += 2) {
            m.put(TABLE[i], TABLE[i + 1]);
        }
        extra.forEach((ext, type) -> m.put(ext.toLowerCase(Locale.ROOT), type));
        return new ContentTypes(m);
    }

    /** The media type of {@code fileName}, or {@link #DEFAULT}; the extension is matched case-insensitively. */
    String of(String fileName) {
        int dot = fileName.lastIndexOf('.');
        if (dot < 0 || dot == fileName.length() - 1) {
            return DEFAULT;
        }
        return byExtension.getOrDefault(fileName.substring(dot + 1).toLowerCase(Locale.ROOT), DEFAULT);
    }
}
