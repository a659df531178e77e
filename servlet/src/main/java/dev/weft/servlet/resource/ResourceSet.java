package dev.weft.servlet.resource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The static resources of a context (Servlet 6.1 §4.6): first the document root directory, then the
 * {@code META-INF/resources} of each static resource location (a jar or a directory), in order. Paths are
 * context-relative, start with {@code /}, and must already be canonical: a path with a {@code ..} segment, a
 * backslash or a NUL finds nothing. Nothing outside a root is reachable, symbolic links included. Class files
 * are never found here, since the class path is not a root. Thread-safe; jar roots (plain files, or jars nested
 * in an executable jar, read through their {@code jar:} URL) keep their file open until {@link #close()}.
 */
public final class ResourceSet implements AutoCloseable {

    private static final String META_INF_RESOURCES = "META-INF/resources";

    private final Path documentRoot;
    private final List<Path> directories = new ArrayList<>();
    private final List<JarFile> jars = new ArrayList<>();

    /**
     * @param documentRoot    the document root (an existing directory)
     * @param staticLocations jars or directories whose {@code META-INF/resources} holds static resources
     */
    public ResourceSet(Path documentRoot, List<URL> staticLocations) {
        try {
            this.documentRoot = documentRoot.toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("document root " + documentRoot, e);
        }
        for (URL url : staticLocations) {
            Path location = locationOf(url);
            if (location == null) {
                jars.add(openJar(url));
                continue;
            }
            try {
                if (Files.isDirectory(location)) {
                    Path dir = location.resolve(META_INF_RESOURCES);
                    if (Files.isDirectory(dir)) {
                        directories.add(dir.toRealPath());
                    }
                } else if (Files.isRegularFile(location)) {
                    jars.add(new JarFile(location.toFile()));
                }
            } catch (IOException e) {
                throw new UncheckedIOException("static resource location " + url, e);
            }
        }
    }

    /** The document root. */
    public Path documentRoot() {
        return documentRoot;
    }

    /** The resource at {@code path}, or null. */
    public Resource find(String path) {
        if (!isSafe(path)) {
            return null;
        }
        Resource r = inDirectory(documentRoot, path);
        if (r != null) {
            return r;
        }
        for (Path dir : directories) {
            r = inDirectory(dir, path);
            if (r != null) {
                return r;
            }
        }
        for (JarFile jar : jars) {
            r = inJar(jar, path);
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    /**
     * The file system path of {@code path} in the document root or a static directory, or null when it is not
     * a file there ({@code getRealPath}).
     */
    public Path realPath(String path) {
        if (!isSafe(path)) {
            return null;
        }
        Path p = documentRoot.resolve(path.substring(1)).normalize();
        return p.startsWith(documentRoot) ? p : null;
    }

    /**
     * The entries directly under directory {@code path} ({@code getResourcePaths}): each a full path,
     * sub-directories ending with {@code /}; null when there is no such directory.
     */
    public Set<String> list(String path) {
        if (!isSafe(path)) {
            return null;
        }
        String dirPath = path.endsWith("/") ? path : path + "/";
        Set<String> out = new TreeSet<>();
        boolean found = false;
        List<Path> roots = new ArrayList<>();
        roots.add(documentRoot);
        roots.addAll(directories);
        for (Path root : roots) {
            Path dir = within(root, dirPath);
            if (dir != null && Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                found = true;
                try (Stream<Path> children = Files.list(dir)) {
                    children.forEach(c -> out.add(dirPath + c.getFileName() + (Files.isDirectory(c) ? "/" : "")));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        String prefix = META_INF_RESOURCES + dirPath;
        for (JarFile jar : jars) {
            Enumeration<JarEntry> entries = jar.entries();
            while (entries.hasMoreElements()) {
                String name = entries.nextElement().getName();
                if (name.startsWith(prefix) && name.length() > prefix.length()) {
                    found = true;
                    String rest = name.substring(prefix.length());
                    int slash = rest.indexOf('/');
                    out.add(dirPath + (slash < 0 ? rest : rest.substring(0, slash + 1)));
                } else if (name.equals(prefix)) {
                    found = true;
                }
            }
        }
        return found ? out : null;
    }

    @Override
    public void close() {
        for (JarFile jar : jars) {
            try {
                jar.close();
            } catch (IOException e) {
                // nothing to lose: the jar was only read
            }
        }
        jars.clear();
    }

    private static Resource inDirectory(Path root, String path) {
        Path p = within(root, path);
        if (p == null) {
            return null;
        }
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isDirectory() && !a.isRegularFile()) {
                return null; // a symbolic link or something else: not served
            }
            return new Resource(path, p.toUri().toURL(), a.isDirectory(), a.isDirectory() ? -1 : a.size(),
                    a.lastModifiedTime().toMillis());
        } catch (IOException e) {
            return null;
        }
    }

    private static Path within(Path root, String path) {
        Path p = root.resolve(path.substring(1)).normalize();
        if (!p.startsWith(root)) {
            return null;
        }
        // every ancestor below the root must be a real directory, not a link out of the root
        for (Path q = p.getParent(); q != null && q.startsWith(root) && !q.equals(root); q = q.getParent()) {
            if (Files.isSymbolicLink(q)) {
                return null;
            }
        }
        return p;
    }

    private static Resource inJar(JarFile jar, String path) {
        String name = META_INF_RESOURCES + path;
        JarEntry e = jar.getJarEntry(name);
        boolean directory = false;
        if (e == null || path.endsWith("/")) {
            JarEntry dir = jar.getJarEntry(name.endsWith("/") ? name : name + "/");
            if (dir == null) {
                return null;
            }
            e = dir;
            directory = true;
        } else if (e.isDirectory()) {
            directory = true;
        }
        try {
            URL url = new URI("jar:" + Path.of(jar.getName()).toUri() + "!/" + e.getName()).toURL();
            return new Resource(path, url, directory, directory ? -1 : e.getSize(), e.getTime());
        } catch (URISyntaxException | MalformedURLException ex) {
            return null;
        }
    }

    private static boolean isSafe(String path) {
        if (path == null || !path.startsWith("/") || path.indexOf('\\') >= 0 || path.indexOf('\0') >= 0) {
            return false;
        }
        for (String segment : path.split("/")) {
            if (segment.equals("..")) {
                return false;
            }
        }
        return true;
    }

    /** The jar file or directory a static resource location URL names, or null. */
    /**
     * The jar behind a {@code jar:} URL that is not a plain file, such as a jar nested in a Spring Boot
     * executable jar ({@code jar:nested:/app.jar/!BOOT-INF/lib/webjar.jar!/}); not shared with the URL cache, so
     * {@link #close()} may close it.
     */
    private static JarFile openJar(URL url) {
        try {
            URLConnection connection = url.openConnection();
            if (connection instanceof JarURLConnection jar) {
                jar.setUseCaches(false);
                return jar.getJarFile();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("static resource location " + url, e);
        }
        throw new IllegalArgumentException("not a jar or directory location: " + url);
    }

    private static Path locationOf(URL url) {
        try {
            String s = url.toString();
            if (s.startsWith("jar:")) {
                int bang = s.indexOf("!/");
                s = bang < 0 ? s.substring(4) : s.substring(4, bang);
            }
            URI uri = new URI(s);
            return "file".equals(uri.getScheme()) ? Path.of(uri) : null;
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }
}
