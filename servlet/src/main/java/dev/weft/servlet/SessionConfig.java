package dev.weft.servlet;

import jakarta.servlet.SessionTrackingMode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How the container keeps HTTP sessions: the inactivity timeout, the tracking modes, the session cookie, the
 * most live sessions, how often expired ones are swept, and an optional directory where sessions are saved when
 * the container is destroyed and read back when a container with the same directory is created. Immutable and
 * validated; build one with {@link #builder()}.
 */
public final class SessionConfig {

    private final Duration timeout;
    private final Set<SessionTrackingMode> trackingModes;
    private final int maxSessions;
    private final Duration sweepInterval;
    private final Path storeDir;
    private final String cookieName;
    private final Map<String, String> cookieAttributes;

    private SessionConfig(Builder b) {
        this.timeout = b.timeout;
        this.trackingModes = Set.copyOf(b.trackingModes);
        this.maxSessions = b.maxSessions;
        this.sweepInterval = b.sweepInterval;
        this.storeDir = b.storeDir;
        this.cookieName = b.cookieName;
        this.cookieAttributes = Map.copyOf(b.cookieAttributes);
    }

    /** A builder with the defaults: 30 minutes, COOKIE and URL tracking, 100,000 sessions, a 30 s sweep. */
    public static Builder builder() {
        return new Builder();
    }

    /** The defaults. */
    public static SessionConfig defaults() {
        return builder().build();
    }

    /** Inactivity timeout; zero: sessions never expire. */
    public Duration timeout() {
        return timeout;
    }

    /** The tracking modes in effect at start (an initializer may change them). */
    public Set<SessionTrackingMode> trackingModes() {
        return trackingModes;
    }

    /** Most live sessions; creating one more is answered 503. */
    public int maxSessions() {
        return maxSessions;
    }

    /** How often expired sessions are removed. */
    public Duration sweepInterval() {
        return sweepInterval;
    }

    /** Where sessions persist across a destroy and a new container, or null. */
    public Path storeDir() {
        return storeDir;
    }

    /** The session cookie's name. */
    public String cookieName() {
        return cookieName;
    }

    /** The session cookie's attributes ({@code Domain}, {@code Path}, {@code HttpOnly}, {@code SameSite}...). */
    public Map<String, String> cookieAttributes() {
        return cookieAttributes;
    }

    /** Builder of {@link SessionConfig}. */
    public static final class Builder {
        private Duration timeout = Duration.ofMinutes(30);
        private Set<SessionTrackingMode> trackingModes = EnumSet.of(SessionTrackingMode.COOKIE, SessionTrackingMode.URL);
        private int maxSessions = 100_000;
        private Duration sweepInterval = Duration.ofSeconds(30);
        private Path storeDir;
        private String cookieName = "JSESSIONID";
        private final Map<String, String> cookieAttributes = new LinkedHashMap<>(Map.of("HttpOnly", ""));

        private Builder() {
        }

        /** Inactivity timeout (whole seconds; zero or {@code null}: never). */
        public Builder timeout(Duration timeout) {
            if (timeout != null && timeout.isNegative()) {
                throw new IllegalArgumentException("session timeout must not be negative: " + timeout);
            }
            this.timeout = timeout == null ? Duration.ZERO : timeout;
            return this;
        }

        /** Tracking modes; {@code SSL} cannot be combined with another. */
        public Builder trackingModes(Set<SessionTrackingMode> modes) {
            Objects.requireNonNull(modes, "tracking modes");
            if (modes.contains(SessionTrackingMode.SSL) && modes.size() > 1) {
                throw new IllegalArgumentException("SSL session tracking cannot be combined with another mode");
            }
            this.trackingModes = EnumSet.noneOf(SessionTrackingMode.class);
            this.trackingModes.addAll(modes);
            return this;
        }

        /** Most live sessions (at least 1). */
        public Builder maxSessions(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxSessions must be at least 1: " + max);
            }
            this.maxSessions = max;
            return this;
        }

        /** How often expired sessions are swept (positive). */
        public Builder sweepInterval(Duration interval) {
            if (interval == null || interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("sweep interval must be positive: " + interval);
            }
            this.sweepInterval = interval;
            return this;
        }

        /** Persist sessions in {@code dir} across a destroy and the next container; null: in memory only. */
        public Builder storeDir(Path dir) {
            this.storeDir = dir;
            return this;
        }

        /** The session cookie's name. */
        public Builder cookieName(String name) {
            if (name == null || name.isEmpty()) {
                throw new IllegalArgumentException("session cookie name must not be empty");
            }
            this.cookieName = name;
            return this;
        }

        /**
         * A session cookie attribute ({@code Domain}, {@code Path}, {@code Max-Age}, {@code Secure},
         * {@code HttpOnly}, {@code SameSite}, {@code Partitioned}...); an empty value for a flag, null removes it.
         */
        public Builder cookieAttribute(String name, String value) {
            Objects.requireNonNull(name, "attribute name");
            if (value == null) {
                cookieAttributes.keySet().removeIf(k -> k.equalsIgnoreCase(name));
            } else {
                cookieAttributes.keySet().removeIf(k -> k.equalsIgnoreCase(name));
                cookieAttributes.put(name, value);
            }
            return this;
        }

        /** The validated configuration. */
        public SessionConfig build() {
            return new SessionConfig(this);
        }
    }
}
