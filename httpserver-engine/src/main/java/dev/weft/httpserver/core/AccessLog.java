package dev.weft.httpserver.core;

import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * One line per exchange on the {@value #LOGGER_NAME} logger at {@code INFO}: common log format followed by
 * the protocol and the duration in milliseconds.
 */
public final class AccessLog {

    /** Name of the {@link System.Logger} access lines go to. */
    public static final String LOGGER_NAME = "dev.weft.httpserver.access";

    private static final System.Logger LOG = System.getLogger(LOGGER_NAME);
    private static final DateTimeFormatter CLF_TIME =
            DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.US);

    private AccessLog() {
    }

    /** Logs one exchange. */
    public static void log(InetSocketAddress remote, String user, String method, String target, String protocol,
                           int status, long bytes, long startNanos) {
        if (!LOG.isLoggable(Level.INFO)) {
            return;
        }
        long millis = (System.nanoTime() - startNanos) / 1_000_000;
        LOG.log(Level.INFO, commonLogLine(remote, user, method, target, protocol, status, bytes)
                + " " + protocol + " " + millis + "ms");
    }

    /**
     * One exchange in common log format, timed now: {@code client - user [time] "method target protocol" status
     * bytes}, with {@code -} for an unknown client, user or length ({@code bytes < 0}).
     */
    public static String commonLogLine(InetSocketAddress remote, String user, String method, String target,
                                       String protocol, int status, long bytes) {
        return (remote == null ? "-" : remote.getAddress().getHostAddress()) + " - "
                + (user == null ? "-" : user) + " [" + CLF_TIME.format(ZonedDateTime.now()) + "] \""
                + method + " " + target + " " + protocol + "\" " + status + " " + (bytes < 0 ? "-" : bytes);
    }
}
