package dev.weft.servlet.context;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.annotation.HandlesTypes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Finds the classes a {@code ServletContainerInitializer}'s {@link HandlesTypes} asks for (Servlet 6.1 §8.2.4):
 * those below the given packages, in directories or jars of the application's class loader, that extend or
 * implement one of the handled types, or carry one of the handled annotations on the class, a method or a field.
 * Classes are loaded without being initialized; one that cannot be loaded (a missing optional dependency) is
 * skipped and logged at DEBUG, as the specification asks.
 */
public final class HandlesTypesScanner {

    private static final System.Logger LOG = System.getLogger(HandlesTypesScanner.class.getName());

    private final ClassLoader loader;
    private final List<String> packages;
    private List<Class<?>> candidates;

    /** @param packages package names to scan (with their sub-packages) */
    public HandlesTypesScanner(ClassLoader loader, List<String> packages) {
        this.loader = loader;
        this.packages = List.copyOf(packages);
    }

    /**
     * The classes {@code initializer} handles, or null when it has no {@code @HandlesTypes} or nothing matched
     * (it is then called with null).
     */
    public Set<Class<?>> classesFor(ServletContainerInitializer initializer) {
        HandlesTypes handles = initializer.getClass().getAnnotation(HandlesTypes.class);
        if (handles == null || handles.value().length == 0) {
            return null;
        }
        Set<Class<?>> matches = new LinkedHashSet<>();
        for (Class<?> c : candidates()) {
            for (Class<?> wanted : handles.value()) {
                if (matches(c, wanted)) {
                    matches.add(c);
                    break;
                }
            }
        }
        return matches.isEmpty() ? null : matches;
    }

    @SuppressWarnings("unchecked")
    private static boolean matches(Class<?> c, Class<?> wanted) {
        if (c == wanted) {
            return false;
        }
        if (wanted.isAnnotation()) {
            Class<? extends Annotation> a = (Class<? extends Annotation>) wanted;
            try {
                return c.isAnnotationPresent(a) || any(c.getDeclaredMethods(), a) || any(c.getDeclaredFields(), a);
            } catch (LinkageError e) {
                return false;
            }
        }
        return wanted.isAssignableFrom(c);
    }

    private static boolean any(AnnotatedElement[] elements, Class<? extends Annotation> a) {
        for (AnnotatedElement e : elements) {
            if (e.isAnnotationPresent(a)) {
                return true;
            }
        }
        return false;
    }

    private List<Class<?>> candidates() {
        if (candidates == null) {
            Set<String> names = new LinkedHashSet<>();
            for (String pkg : packages) {
                collect(pkg, names);
            }
            List<Class<?>> classes = new ArrayList<>();
            for (String name : names) {
                try {
                    classes.add(Class.forName(name, false, loader));
                } catch (ClassNotFoundException | LinkageError e) {
                    LOG.log(System.Logger.Level.DEBUG, () -> "skipping " + name + " while scanning for @HandlesTypes: " + e);
                }
            }
            candidates = classes;
        }
        return candidates;
    }

    private void collect(String pkg, Set<String> names) {
        String path = pkg.replace('.', '/');
        try {
            Enumeration<URL> roots = loader.getResources(path);
            while (roots.hasMoreElements()) {
                URL url = roots.nextElement();
                if (url.getProtocol().equals("file")) {
                    Path dir = Path.of(url.toURI());
                    try (Stream<Path> files = Files.walk(dir)) {
                        files.filter(f -> f.toString().endsWith(".class")).forEach(f -> {
                            String rel = dir.relativize(f).toString().replace(java.io.File.separatorChar, '/');
                            addClassName(path + "/" + rel, names);
                        });
                    }
                } else if (url.getProtocol().equals("jar")
                        && url.openConnection() instanceof JarURLConnection connection) {
                    connection.setUseCaches(false);
                    try (JarFile jar = connection.getJarFile()) {
                        Enumeration<JarEntry> entries = jar.entries();
                        while (entries.hasMoreElements()) {
                            String name = entries.nextElement().getName();
                            if (name.startsWith(path + "/")) {
                                addClassName(name, names);
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("scanning package " + pkg, e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("scanning package " + pkg, e);
        }
    }

    private static void addClassName(String resource, Set<String> names) {
        if (resource.endsWith(".class") && !resource.endsWith("module-info.class")
                && !resource.endsWith("package-info.class")) {
            names.add(resource.substring(0, resource.length() - 6).replace('/', '.'));
        }
    }
}
