package dev.weft.httpserver.cli;

import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.Http2Config;
import dev.weft.httpserver.config.ForwardedConfig;
import dev.weft.httpserver.config.Listener;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.files.FileHandler;
import dev.weft.httpserver.stats.StatsSnapshot;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The command-line file server: {@code java -jar weft-httpserver.jar [options]} or
 * {@code java -m dev.weft.httpserver/dev.weft.httpserver.cli.Main [options]}. Takes {@code jwebserver}'s options
 * and adds HTTPS and HTTP/2; serves a directory with {@link FileHandler}. Exit status: 0 after {@code -h} or
 * {@code -version}, 1 for a bad command line, 2 when the server cannot start.
 */
public final class Main {

    static final String USAGE = """
            Usage: java -jar weft-httpserver.jar [-b address] [-p port] [--listen url]... [-d directory]
                       [-o none|info|verbose] [--tls] [--keystore file] [--keystore-password password]
                       [--http2] [--trusted-proxies list] [--proxy-protocol] [--access-log]
                       [--access-log-file file] [--access-log-pattern pattern]
                       [--access-log-rotate daily|size] [--access-log-max-size bytes]
                       [--access-log-max-files n] [-h] [-version]
            """;

    static final String HELP = USAGE + """
            Serves the files of a directory and its subdirectories (GET and HEAD only).
            Options:
              -b, --bind-address addr   Address to listen on. Default: 127.0.0.1 (loopback only);
                                        "-b 0.0.0.0" or "-b ::" listens on every interface.
              -p, --port port           Port to listen on; 0 picks a free one. Default: 8000.
                  --listen url          Listen on http://host:port or https://host:port ([v6]:port)
                                        instead of -b, -p and --tls; repeat it to listen on several.
              -d, --directory dir       Directory to serve. Default: the current directory.
              -o, --output level        none, info (a line per request) or verbose (with headers).
                                        Default: info.
                  --tls                 Serve HTTPS with a self-signed certificate for localhost,
                                        made at start-up.
                  --keystore file       Serve HTTPS with the key and certificate in this PKCS12 or
                                        JKS keystore (implies --tls).
                  --keystore-password p Password of the keystore and its key. Default: the
                                        environment variable WEFT_KEYSTORE_PASSWORD.
                  --http2               Offer HTTP/2 too: h2 by ALPN with TLS, h2c (prior
                                        knowledge) in cleartext. Default: HTTP/1.1 only.
                  --trusted-proxies l   Believe Forwarded and X-Forwarded-* from these proxies
                                        (addresses, CIDR blocks, "internal"). Default: ignored.
                  --proxy-protocol      Require a PROXY protocol v1/v2 header on every
                                        connection (behind HAProxy, a load balancer).
                  --access-log          Log each request in the combined log format to the
                                        logger dev.weft.httpserver.access, or to the file of
                                        --access-log-file, off the request path.
                  --access-log-file f   Append the access log to this file (implies
                                        --access-log).
                  --access-log-pattern p
                                        combined (default), common, or %-directives such as
                                        '%h %t "%r" %>s %b %D' (implies --access-log).
                  --access-log-rotate daily|size
                                        daily: a file per day and by size (default);
                                        size: by size only.
                  --access-log-max-size n
                                        Rotate the file beyond n bytes (k, m, g suffixes;
                                        0: never). Default: 100m.
                  --access-log-max-files n
                                        Rotated files kept. Default: 30.
              -h, -?, --help            Print this help and exit.
              -version, --version       Print the version and exit.
            Stop the server with Ctrl+C.
            """;

    private Main() {
    }

    /** Runs the server until the process is stopped; exits with 1 or 2 on errors. */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status >= 0) {
            System.exit(status);
        }
    }

    /** Starts the server, or prints help, version or an error: returns an exit status, or -1 once serving. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLineOptions options;
        try {
            options = CommandLineOptions.parse(args, System.getenv(CommandLineOptions.PASSWORD_ENV));
        } catch (CommandLineOptions.UsageException e) {
            err.println("Error: " + e.getMessage());
            err.print(USAGE);
            return 1;
        }
        switch (options.action()) {
            case HELP -> {
                out.print(HELP);
                return 0;
            }
            case VERSION -> {
                out.println("weft-httpserver " + version());
                return 0;
            }
            case SERVE -> {
                try {
                    start(options, out);
                    return -1;
                } catch (IOException | GeneralSecurityException | IllegalArgumentException e) {
                    err.println("Error: server config failed: " + e.getMessage());
                    return 2;
                }
            }
        }
        throw new IllegalStateException(options.action().toString());
    }

    /** Starts serving as {@code options} say and prints the banner; returns the started server. */
    static HttpServer start(CommandLineOptions options, PrintStream out) throws IOException, GeneralSecurityException {
        if (!Files.isDirectory(options.directory())) {
            throw new IOException("not a directory: " + options.directory());
        }
        FileHandler files = FileHandler.builder(options.directory()).build();
        ServerConfig config = ServerConfig.builder()
                .http2(Http2Config.builder().h2Enabled(options.http2()).h2cEnabled(options.http2()).build())
                .forwarded(ForwardedConfig.builder().enabled(options.trustedProxies() != null)
                        .trustedProxies(options.trustedProxies() != null ? options.trustedProxies() : "internal")
                        .proxyProtocol(options.proxyProtocol()).build())
                .accessLog(options.accessLog())
                .build();
        String fingerprint = null;
        HttpsConfigurator tls = null;
        if (options.anyTls()) {
            SSLContext context;
            if (options.keystore() != null) {
                context = keystoreContext(options);
            } else {
                SelfSignedCertificate cert = SelfSignedCertificate.generate(30);
                context = cert.sslContext();
                fingerprint = cert.fingerprint();
            }
            tls = new HttpsConfigurator(context);
        }
        List<Listener> listeners = new ArrayList<>();
        for (CommandLineOptions.Endpoint e : options.endpoints()) {
            InetSocketAddress socket = new InetSocketAddress(InetAddress.getByName(e.host()), e.port());
            listeners.add(e.tls() ? Listener.https(socket, tls) : Listener.http(socket));
        }
        HttpServer server = Weft.createServer(config, listeners);
        HttpContext context = server.createContext("/", files);
        if (options.output() != CommandLineOptions.Output.NONE) {
            context.getFilters().add(new RequestLog(out, options.output() == CommandLineOptions.Output.VERBOSE));
        }
        server.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(0), "weft-cli-stop"));
        if (options.bindDefaulted()) {
            out.println("Listening on loopback only; -b 0.0.0.0 or -b :: listens on every interface.");
        }
        for (StatsSnapshot.Listener l : Weft.stats(server).listeners()) {
            banner(l, options.http2(), files, out);
        }
        if (fingerprint != null) {
            out.println("Self-signed certificate for localhost, SHA-256 fingerprint " + fingerprint);
        }
        out.flush();
        return server;
    }

    /** The line naming where one listener serves. */
    private static void banner(StatsSnapshot.Listener listener, boolean http2, FileHandler files, PrintStream out) {
        InetAddress shown = listener.address().getAddress();
        String note = "";
        if (shown.isAnyLocalAddress()) {
            note = " (every interface)";
            try {
                shown = InetAddress.getLocalHost();
            } catch (UnknownHostException e) {
                shown = InetAddress.getLoopbackAddress();
            }
        }
        String host = shown instanceof Inet6Address ? "[" + shown.getHostAddress() + "]" : shown.getHostAddress();
        boolean tls = listener.scheme().equals("https");
        String protocols = http2 ? (tls ? "HTTP/1.1 and HTTP/2 (h2)" : "HTTP/1.1 and HTTP/2 (h2c)") : "HTTP/1.1";
        out.println("Serving " + files.root() + " and subdirectories at " + listener.scheme() + "://" + host + ":"
                + listener.address().getPort() + "/" + note + " over " + protocols);
    }

    private static SSLContext keystoreContext(CommandLineOptions options)
            throws IOException, GeneralSecurityException {
        char[] password = options.keystorePassword().toCharArray();
        KeyStore ks = KeyStore.getInstance(options.keystore().toFile(), password);
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, password);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        return ctx;
    }

    /** The engine's version, from the build. */
    static String version() {
        try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                return p.getProperty("version", "unknown");
            }
        } catch (IOException e) {
            // below
        }
        return "unknown";
    }
}
