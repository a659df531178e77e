package dev.weft.httpserver.accesslog;

import java.lang.System.Logger.Level;
import java.util.List;

/** The {@value #LOGGER_NAME} {@link System.Logger}: each line a message at {@code INFO}. */
public final class LoggerDestination implements Destination {

    /** Name of the logger. */
    public static final String LOGGER_NAME = "dev.weft.httpserver.access";

    private static final System.Logger LOG = System.getLogger(LOGGER_NAME);

    @Override
    public boolean accepts() {
        return LOG.isLoggable(Level.INFO);
    }

    @Override
    public void write(List<Lines> batch) {
        for (Lines lines : batch) {
            for (String line : lines.text()) {
                LOG.log(Level.INFO, line);
            }
        }
    }
}
