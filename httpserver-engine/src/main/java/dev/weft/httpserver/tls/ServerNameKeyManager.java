package dev.weft.httpserver.tls;

import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLSession;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.StandardConstants;
import javax.net.ssl.X509ExtendedKeyManager;
import java.lang.System.Logger.Level;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A server key manager that picks the key material by the server name the client asked for (TLS SNI): that
 * of the matching entry, else the default one, for a client that sent no name or one no entry matches. Each
 * alias it hands out is prefixed with its key manager's index ({@code 2:alias}), so certificate and key look-ups
 * go back to the key manager that chose it. Not for client connections.
 */
public final class ServerNameKeyManager extends X509ExtendedKeyManager {

    private static final System.Logger LOG = System.getLogger(ServerNameKeyManager.class.getName());
    private static final char SEPARATOR = ':';

    private final List<X509ExtendedKeyManager> managers;
    private final ServerNameTable<Integer> names;
    private final LongAdder unknownNames = new LongAdder();

    /**
     * @param defaultKeys the key material for clients without a known server name
     * @param named       the key material of each server name or {@code *.domain} wildcard, in order
     * @throws IllegalArgumentException if a name is malformed or given twice
     */
    public ServerNameKeyManager(X509ExtendedKeyManager defaultKeys, List<NamedKeys> named) {
        List<X509ExtendedKeyManager> all = new ArrayList<>();
        all.add(defaultKeys);
        List<Map.Entry<String, Integer>> entries = new ArrayList<>();
        for (NamedKeys n : named) {
            entries.add(Map.entry(n.serverName(), all.size()));
            all.add(n.keys());
        }
        this.managers = List.copyOf(all);
        this.names = ServerNameTable.of(entries);
    }

    /** The key material of one server name (or wildcard). */
    public record NamedKeys(String serverName, X509ExtendedKeyManager keys) {
    }

    /** How many handshakes were given the default key material for a server name no entry matched. */
    public long unknownNameHandshakes() {
        return unknownNames.sum();
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        SSLSession handshake = socket instanceof SSLSocket tls ? tls.getHandshakeSession() : null;
        int index = select(handshake);
        return served(index, managers.get(index).chooseServerAlias(keyType, issuers, socket), handshake);
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        SSLSession handshake = engine != null ? engine.getHandshakeSession() : null;
        int index = select(handshake);
        return served(index, managers.get(index).chooseEngineServerAlias(keyType, issuers, engine), handshake);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        List<String> aliases = new ArrayList<>();
        for (int i = 0; i < managers.size(); i++) {
            String[] some = managers.get(i).getServerAliases(keyType, issuers);
            if (some != null) {
                for (String alias : some) {
                    aliases.add(prefixed(i, alias));
                }
            }
        }
        return aliases.isEmpty() ? null : aliases.toArray(String[]::new);
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        int index = indexOf(alias);
        return index < 0 ? null : managers.get(index).getCertificateChain(unprefixed(alias));
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        int index = indexOf(alias);
        return index < 0 ? null : managers.get(index).getPrivateKey(unprefixed(alias));
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }

    @Override
    public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return null;
    }

    private int select(SSLSession handshake) {
        String name = requestedHostName(handshake);
        if (name == null) {
            return 0;
        }
        Integer index = names.find(name);
        return index != null ? index : 0;
    }

    /**
     * The alias handed to the TLS stack; a handshake given the default key material for a name no entry
     * matched is counted and logged once the default has a key of the wanted type (the stack asks once per
     * key type until one has).
     */
    private String served(int index, String alias, SSLSession handshake) {
        if (alias == null) {
            return null;
        }
        if (index == 0) {
            String name = requestedHostName(handshake);
            if (name != null) {
                unknownNames.increment();
                LOG.log(Level.DEBUG, "No certificate for TLS server name {0}; serving the default one", name);
            }
        }
        return prefixed(index, alias);
    }

    private static String requestedHostName(SSLSession handshake) {
        if (handshake instanceof ExtendedSSLSession extended) {
            for (SNIServerName name : extended.getRequestedServerNames()) {
                // the JDK parses a host name (type 0) into an SNIHostName
                if (name.getType() == StandardConstants.SNI_HOST_NAME && name instanceof SNIHostName host) {
                    return host.getAsciiName();
                }
            }
        }
        return null;
    }

    private static String prefixed(int index, String alias) {
        return index + String.valueOf(SEPARATOR) + alias;
    }

    private int indexOf(String alias) {
        int end = alias == null ? -1 : alias.indexOf(SEPARATOR);
        if (end <= 0) {
            return -1;
        }
        try {
            int index = Integer.parseInt(alias, 0, end, 10);
            return index < managers.size() ? index : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static String unprefixed(String alias) {
        return alias.substring(alias.indexOf(SEPARATOR) + 1);
    }
}
