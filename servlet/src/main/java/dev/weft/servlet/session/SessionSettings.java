package dev.weft.servlet.session;

import jakarta.servlet.SessionTrackingMode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * How a context keeps its sessions. Immutable.
 *
 * @param maxInactiveSeconds default inactivity limit of a session in seconds; 0 or less: sessions never expire
 * @param trackingModes      how session ids travel (default {@code COOKIE} and {@code URL})
 * @param maxSessions        most live sessions; creating one more fails with {@link SessionLimitException}
 * @param sweepInterval      how often expired sessions are removed (a lookup also drops an expired session)
 * @param storeDir           where sessions are saved when the context is destroyed and read back when it is
 *                           created again; null: sessions live in memory only
 */
public record SessionSettings(int maxInactiveSeconds, Set<SessionTrackingMode> trackingModes, int maxSessions,
                              Duration sweepInterval, Path storeDir) {

    /** Copies the tracking modes. */
    public SessionSettings {
        trackingModes = Set.copyOf(trackingModes);
    }
}
