package dev.weft.bench.wsjakarta;

/**
 * What the three echo servers share: where they listen (127.0.0.1, a listen backlog of 1024, the port from the
 * command line) and the line that tells bench/run-ws-jakarta.sh they are ready.
 */
public final class EchoServers {

    /** Loopback only: the load generator runs on the same machine. */
    public static final String HOST = "127.0.0.1";

    /** The listen backlog of every server (1,000 connections arrive in a burst). */
    public static final int BACKLOG = 1024;

    private EchoServers() {
    }

    /** The port, the one argument of every server's main. */
    public static int port(String[] args, Class<?> main) {
        if (args.length != 1 || !args[0].matches("[0-9]{1,5}")) {
            System.err.println("usage: java " + main.getName() + " PORT");
            System.exit(2);
        }
        return Integer.parseInt(args[0]);
    }

    /**
     * Prints {@code ready <server class> <port> <ServerContainer class>} on stdout: the harness checks the first
     * word, so a class path that ended up with the wrong server is never measured under the wrong name.
     */
    public static void ready(Class<?> server, int port, Object serverContainer) {
        System.out.println("ready " + server.getName() + " " + port + " "
                + (serverContainer == null ? "none" : serverContainer.getClass().getName()));
        System.out.flush();
    }
}
