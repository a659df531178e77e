package dev.weft.spring.boot;

import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.web.server.Ssl;
import org.springframework.boot.web.server.WebServerSslBundle;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The SSL bundles of a server: the default one ({@code server.ssl.bundle} or the key-store properties) and one
 * per SNI server name ({@code server.ssl.server-name-bundles}). Immutable.
 *
 * @param defaultBundle  for clients without a known server name
 * @param byServerName   the bundle of each server name (or {@code *.domain} wildcard), in the configured order
 */
record ServerSslBundles(SslBundle defaultBundle, Map<String, SslBundle> byServerName) {

    ServerSslBundles {
        byServerName = Collections.unmodifiableMap(new LinkedHashMap<>(byServerName));
    }

    /** The bundles {@code ssl} names, looked up in {@code bundles}. */
    static ServerSslBundles of(Ssl ssl, SslBundles bundles) {
        Map<String, SslBundle> byName = new LinkedHashMap<>();
        if (ssl.getServerNameBundles() != null) {
            for (Ssl.ServerNameSslBundle named : ssl.getServerNameBundles()) {
                if (bundles == null) {
                    throw new IllegalStateException("server.ssl.server-name-bundles needs SSL bundles "
                            + "(spring.ssl.bundle.*), and there are none");
                }
                byName.put(named.serverName(), bundles.getBundle(named.bundle()));
            }
        }
        return new ServerSslBundles(WebServerSslBundle.get(ssl, bundles), byName);
    }

    /** These bundles with {@code bundle} for {@code serverName}, or as the default for a {@code null} name. */
    ServerSslBundles with(String serverName, SslBundle bundle) {
        if (serverName == null) {
            return new ServerSslBundles(bundle, byServerName);
        }
        Map<String, SslBundle> byName = new LinkedHashMap<>(byServerName);
        byName.put(serverName, bundle);
        return new ServerSslBundles(defaultBundle, byName);
    }
}
