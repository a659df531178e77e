package dev.weft.servlet.session;

import jakarta.servlet.http.HttpSessionActivationListener;
import jakarta.servlet.http.HttpSessionEvent;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Sessions saved to one file in a directory when their context is destroyed and read back (and the file
 * deleted) when it is created again: ids, times, inactivity limits and the attributes that are
 * {@link Serializable} (others are left out and logged). Attributes that are
 * {@link HttpSessionActivationListener}s are told of passivation before saving and of activation after reading.
 * Sessions expired meanwhile are dropped. Stateless.
 */
final class SessionStore {

    private static final System.Logger LOG = System.getLogger(SessionStore.class.getName());
    private static final String FILE = "sessions.ser";
    private static final int FORMAT = 1;

    private SessionStore() {
    }

    static void save(Path dir, List<WeftSession> sessions) throws IOException {
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "sessions", ".tmp");
        try (ObjectOutputStream out = new ObjectOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp)))) {
            out.writeInt(FORMAT);
            out.writeInt(sessions.size());
            for (WeftSession s : sessions) {
                HttpSessionEvent event = new HttpSessionEvent(s);
                List<Map.Entry<String, Object>> kept = new ArrayList<>();
                for (Map.Entry<String, Object> e : s.attributes().entrySet()) {
                    if (e.getValue() instanceof HttpSessionActivationListener l) {
                        l.sessionWillPassivate(event);
                    }
                    if (e.getValue() instanceof Serializable) {
                        kept.add(e);
                    } else {
                        LOG.log(Level.INFO, "session attribute " + e.getKey() + " is not Serializable: not saved");
                    }
                }
                out.writeUTF(s.getId());
                out.writeLong(s.getCreationTime());
                out.writeLong(s.thisAccessedTime());
                out.writeInt(s.getMaxInactiveInterval());
                out.writeInt(kept.size());
                for (Map.Entry<String, Object> e : kept) {
                    out.writeUTF(e.getKey());
                    out.writeObject(e.getValue());
                }
            }
        }
        Files.move(tmp, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    static List<WeftSession> load(Path dir, SessionManager manager, ClassLoader loader) throws IOException {
        Path file = dir.resolve(FILE);
        List<WeftSession> sessions = new ArrayList<>();
        try (ObjectInputStream in = new LoaderObjectInputStream(
                new BufferedInputStream(Files.newInputStream(file)), loader)) {
            if (in.readInt() != FORMAT) {
                throw new IOException("unknown session file format in " + file);
            }
            int count = in.readInt();
            long now = System.currentTimeMillis();
            for (int i = 0; i < count; i++) {
                WeftSession s = manager.restore(in.readUTF(), in.readLong(), in.readLong(), in.readInt());
                int attributes = in.readInt();
                for (int j = 0; j < attributes; j++) {
                    s.attributes().put(in.readUTF(), in.readObject());
                }
                if (!s.isExpired(now)) {
                    sessions.add(s);
                }
            }
        } catch (NoSuchFileException e) {
            return sessions;
        } catch (ClassNotFoundException e) {
            throw new IOException("a saved session attribute's class is missing", e);
        } finally {
            Files.deleteIfExists(file);
        }
        for (WeftSession s : sessions) {
            HttpSessionEvent event = new HttpSessionEvent(s);
            for (Object value : s.attributes().values()) {
                if (value instanceof HttpSessionActivationListener l) {
                    l.sessionDidActivate(event);
                }
            }
        }
        return sessions;
    }

    /** Resolves classes with the application's class loader. */
    private static final class LoaderObjectInputStream extends ObjectInputStream {
        private final ClassLoader loader;

        LoaderObjectInputStream(InputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }
    }
}
