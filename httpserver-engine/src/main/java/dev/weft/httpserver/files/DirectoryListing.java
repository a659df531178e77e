package dev.weft.httpserver.files;

import dev.weft.httpserver.forms.PercentEncoding;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTML page listing a directory: names HTML-escaped, links percent-encoded, hidden files, symbolic links and
 * special files left out (they are not served either), sorted by name, at most a configured number of entries.
 * Stateless.
 */
final class DirectoryListing {

    private DirectoryListing() {
    }

    /**
     * The page for {@code dir}, shown to the client as {@code requestPath} (decoded, ends with {@code /}).
     *
     * @param maxEntries entries beyond this are counted but not listed
     */
    static byte[] render(Path dir, String requestPath, boolean root, int maxEntries) throws IOException {
        List<String> names = new ArrayList<>();
        int omitted = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                if (!PathResolver.servableName(name)) {
                    continue;
                }
                BasicFileAttributes a;
                try {
                    a = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                } catch (IOException e) {
                    continue; // vanished or not accessible
                }
                if (a.isSymbolicLink() || a.isOther() || Files.isHidden(entry)) {
                    continue;
                }
                if (names.size() >= maxEntries) {
                    omitted++;
                    continue;
                }
                names.add(a.isDirectory() ? name + "/" : name);
            }
        }
        names.sort(null);
        String title = "Directory listing for " + escape(requestPath);
        StringBuilder html = new StringBuilder(256 + names.size() * 64)
                .append("<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>").append(title)
                .append("</title>\n</head>\n<body>\n<h1>").append(title).append("</h1>\n<ul>\n");
        if (!root) {
            html.append("<li><a href=\"../\">../</a></li>\n");
        }
        for (String name : names) {
            boolean isDir = name.endsWith("/");
            String bare = isDir ? name.substring(0, name.length() - 1) : name;
            html.append("<li><a href=\"").append(PercentEncoding.encodeSegment(bare)).append(isDir ? "/" : "").append("\">")
                    .append(escape(name)).append("</a></li>\n");
        }
        html.append("</ul>\n");
        if (omitted > 0) {
            html.append("<p>").append(omitted).append(" more entries not shown.</p>\n");
        }
        html.append("</body>\n</html>\n");
        return html.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** {@code s} with {@code & < > " '} replaced by character references. */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
