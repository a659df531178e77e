package dev.weft.httpserver.files;

import dev.weft.httpserver.forms.FormException;
import dev.weft.httpserver.forms.PercentEncoding;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Maps the raw (still percent-encoded) path of a request, relative to the handler's context, to a file under the
 * root, refusing anything that could leave the root or reveal what the handler must not serve. Immutable.
 *
 * <p>Every segment is decoded on its own (so {@code %2F} can never introduce a separator) with strict UTF-8, and
 * a segment is refused when, decoded, it is empty (except a final one: the trailing slash), {@code .} or
 * {@code ..} (also as {@code %2e%2e}), hidden (leading dot, or {@link Files#isHidden}), or holds a {@code /},
 * a {@code \}, NUL or another control character. Each step is looked at without following links: a symbolic
 * link anywhere on the way, or anything but a directory or regular file, is refused. Last, the real path must
 * still lie under the root's real path.
 */
final class PathResolver {

    /** Where a request path leads. */
    sealed interface Resolution permits NotFound, Directory, RegularFile {
    }

    /** Nothing that may be served: {@code 404}. */
    record NotFound() implements Resolution {
    }

    /** A directory; {@code trailingSlash} tells whether the request path ended with {@code /}. */
    record Directory(Path path, boolean trailingSlash) implements Resolution {
    }

    /** A readable regular file and its attributes (read without following links). */
    record RegularFile(Path path, BasicFileAttributes attributes) implements Resolution {
    }

    private static final Resolution NOT_FOUND = new NotFound();

    private final Path root;

    /** @param root the real path of the served directory */
    PathResolver(Path root) {
        this.root = root;
    }

    /** Resolves {@code rawPath}: empty or starting with {@code /}, relative to the context. */
    Resolution resolve(String rawPath) throws IOException {
        if (rawPath.isEmpty()) {
            return new Directory(root, false);
        }
        if (rawPath.charAt(0) != '/') {
            return NOT_FOUND;
        }
        String[] segments = rawPath.substring(1).split("/", -1);
        Path current = root;
        BasicFileAttributes attrs = Files.readAttributes(root, BasicFileAttributes.class);
        for (int i = 0; i < segments.length; i++) {
            boolean last = i == segments.length - 1;
            if (segments[i].isEmpty()) {
                if (last) {
                    if (!attrs.isDirectory()) {
                        return NOT_FOUND; // "file.txt/"
                    }
                    break; // trailing slash
                }
                return NOT_FOUND; // "//": no empty segments inside a path
            }
            if (!attrs.isDirectory()) {
                return NOT_FOUND;
            }
            String name = decode(segments[i]);
            if (name == null || !servableName(name)) {
                return NOT_FOUND;
            }
            current = current.resolve(name);
            try {
                attrs = Files.readAttributes(current, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                return NOT_FOUND; // missing, or not accessible
            }
            if (attrs.isSymbolicLink() || attrs.isOther() || Files.isHidden(current)) {
                return NOT_FOUND;
            }
        }
        // defence in depth: the real path must still be under the root (e.g. a directory swapped for a link)
        Path real;
        try {
            real = current.toRealPath();
        } catch (IOException e) {
            return NOT_FOUND;
        }
        if (!real.startsWith(root) || !Files.isReadable(real)) {
            return NOT_FOUND;
        }
        if (attrs.isDirectory()) {
            return new Directory(real, rawPath.endsWith("/"));
        }
        return attrs.isRegularFile() ? new RegularFile(real, attrs) : NOT_FOUND;
    }

    /** The entry {@code name} of {@code dir} (a directory already resolved), under the same rules. */
    Resolution child(Path dir, String name) throws IOException {
        if (!servableName(name)) {
            return NOT_FOUND;
        }
        Path p = dir.resolve(name);
        BasicFileAttributes attrs;
        try {
            attrs = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return NOT_FOUND;
        }
        if (!attrs.isRegularFile() || Files.isHidden(p) || !p.toRealPath().startsWith(root) || !Files.isReadable(p)) {
            return NOT_FOUND;
        }
        return new RegularFile(p, attrs);
    }

    /** Whether a file name found in a directory may be served or listed. */
    static boolean servableName(String name) {
        if (name.isEmpty() || name.charAt(0) == '.') {
            return false; // hidden, ".", ".."
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '/' || c == '\\') {
                return false;
            }
        }
        return true;
    }

    /** One percent-decoded segment as strict UTF-8, or null if an escape or the UTF-8 is malformed. */
    static String decode(String segment) {
        try {
            return PercentEncoding.decode(segment, false);
        } catch (FormException e) {
            return null;
        }
    }
}
