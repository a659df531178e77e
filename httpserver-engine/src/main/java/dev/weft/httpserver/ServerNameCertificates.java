package dev.weft.httpserver;

import dev.weft.httpserver.tls.ServerNameKeyManager;
import dev.weft.httpserver.tls.ServerNameKeyManager.NamedKeys;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedKeyManager;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Certificates chosen by the server name a TLS client asks for (SNI): one per host name or {@code *.domain}
 * wildcard, matched without regard to case, an exact name before a wildcard, and a default for clients that send
 * no name or an unknown one. It yields an ordinary {@link SSLContext}, so it plugs into the JDK API:
 *
 * <pre>{@code
 * ServerNameCertificates certificates = ServerNameCertificates.builder(defaultStore, password)
 *         .add("a.example.com", storeOfA, password)
 *         .add("*.b.example.com", storeOfB, password)
 *         .build();
 * httpsServer.setHttpsConfigurator(new HttpsConfigurator(certificates.sslContext()));
 * }</pre>
 *
 * <p>Each name has its own key material only: protocols, cipher suites and client authentication are set once,
 * by the {@code HttpsConfigurator}, before the client names a server. Immutable and thread-safe.
 */
public final class ServerNameCertificates {

    private final ServerNameKeyManager keyManager;

    private ServerNameCertificates(ServerNameKeyManager keyManager) {
        this.keyManager = keyManager;
    }

    /** Starts with the default key material: {@code keys} serves clients without a known server name. */
    public static Builder builder(X509ExtendedKeyManager defaultKeys) {
        return new Builder(Objects.requireNonNull(defaultKeys, "defaultKeys"));
    }

    /**
     * Starts with the default key material: the keys of {@code keyStore}, each unlocked with {@code keyPassword}.
     *
     * @throws GeneralSecurityException if the key store holds no usable key material
     */
    public static Builder builder(KeyStore keyStore, char[] keyPassword) throws GeneralSecurityException {
        return builder(keyManagerOf(keyStore, keyPassword));
    }

    /** The key manager that chooses by server name, for an {@link SSLContext} made otherwise. */
    public X509ExtendedKeyManager keyManager() {
        return keyManager;
    }

    /** A new {@code TLS} context with the chosen certificates and the JDK's default trust (for client certificates). */
    public SSLContext sslContext() {
        try {
            return sslContext("TLS", null);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the JDK's TLS context cannot be initialised", e);
        }
    }

    /**
     * A new context of {@code protocol} (as {@link SSLContext#getInstance(String)} takes) with the chosen
     * certificates, trusting client certificates as {@code trustManagers} say ({@code null}: the JDK default).
     */
    public SSLContext sslContext(String protocol, TrustManager[] trustManagers) throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance(protocol);
        context.init(new KeyManager[] {keyManager}, trustManagers, null);
        return context;
    }

    /**
     * How many handshakes were served the default certificate although the client named a server (one without a
     * certificate here); each is also logged at {@code DEBUG}.
     */
    public long unknownNameHandshakes() {
        return keyManager.unknownNameHandshakes();
    }

    /**
     * The X.509 key manager of {@code keyManagers} (as {@link KeyManagerFactory#getKeyManagers()} returns).
     *
     * @throws IllegalArgumentException if there is none
     */
    public static X509ExtendedKeyManager x509KeyManager(KeyManager[] keyManagers) {
        for (KeyManager km : keyManagers) {
            if (km instanceof X509ExtendedKeyManager x509) {
                return x509;
            }
        }
        throw new IllegalArgumentException("no X509ExtendedKeyManager among the key managers");
    }

    private static X509ExtendedKeyManager keyManagerOf(KeyStore keyStore, char[] keyPassword)
            throws GeneralSecurityException {
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(Objects.requireNonNull(keyStore, "keyStore"), keyPassword);
        return x509KeyManager(factory.getKeyManagers());
    }

    /** Collects the certificates of each server name; not thread-safe. */
    public static final class Builder {

        private final X509ExtendedKeyManager defaultKeys;
        private final List<NamedKeys> named = new ArrayList<>();

        private Builder(X509ExtendedKeyManager defaultKeys) {
            this.defaultKeys = defaultKeys;
        }

        /**
         * Serves {@code keys} to clients asking for {@code serverName}: a host name ({@code a.example.com}) or a
         * wildcard of one leading label ({@code *.example.com}), in ASCII form.
         */
        public Builder add(String serverName, X509ExtendedKeyManager keys) {
            named.add(new NamedKeys(Objects.requireNonNull(serverName, "serverName"),
                    Objects.requireNonNull(keys, "keys")));
            return this;
        }

        /**
         * Serves the keys of {@code keyStore}, each unlocked with {@code keyPassword}, to clients asking for
         * {@code serverName} (see {@link #add(String, X509ExtendedKeyManager)}).
         *
         * @throws GeneralSecurityException if the key store holds no usable key material
         */
        public Builder add(String serverName, KeyStore keyStore, char[] keyPassword)
                throws GeneralSecurityException {
            return add(serverName, keyManagerOf(keyStore, keyPassword));
        }

        /**
         * The certificates collected so far.
         *
         * @throws IllegalArgumentException if a server name is malformed or given twice
         */
        public ServerNameCertificates build() {
            return new ServerNameCertificates(new ServerNameKeyManager(defaultKeys, named));
        }
    }
}
