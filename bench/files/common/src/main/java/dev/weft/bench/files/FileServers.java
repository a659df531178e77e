package dev.weft.bench.files;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the static file servers of bench/run-files.sh share: where they listen (127.0.0.1, a listen backlog of
 * 1024), their two arguments (the port and the directory whose files they serve at {@code /<name>}) and the line
 * that tells the harness they are ready.
 */
public final class FileServers {

    /** Loopback only: the load generator runs on the same machine. */
    public static final String HOST = "127.0.0.1";

    /** The listen backlog of every server. */
    public static final int BACKLOG = 1024;

    private FileServers() {
    }

    /** The arguments of every server's main: {@code PORT DIR}. */
    public record Args(int port, Path dir) {
    }

    /** Parses {@code PORT DIR}; exits with status 2 and a usage line if they are not a port and a directory. */
    public static Args parse(String[] args, Class<?> main) {
        if (args.length != 2 || !args[0].matches("[0-9]{1,5}") || !Files.isDirectory(Path.of(args[1]))) {
            System.err.println("usage: java " + main.getName() + " PORT DIR   (DIR: an existing directory)");
            System.exit(2);
        }
        return new Args(Integer.parseInt(args[0]), Path.of(args[1]).toAbsolutePath().normalize());
    }

    /**
     * Prints {@code ready <server class> <port>} on stdout: the harness checks the first word, so a class path
     * that ended up with the wrong server is never measured under the wrong name.
     */
    public static void ready(Class<?> server, int port) {
        System.out.println("ready " + server.getName() + " " + port);
        System.out.flush();
    }
}
