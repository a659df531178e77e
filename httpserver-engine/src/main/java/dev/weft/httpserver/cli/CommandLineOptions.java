package dev.weft.httpserver.cli;

import dev.weft.httpserver.config.AccessLogConfig;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The parsed command line of {@link Main}, with {@code jwebserver}'s option spellings and defaults plus
 * {@code --listen}, {@code --tls}, {@code --keystore}, {@code --keystore-password}, {@code --http2},
 * {@code --trusted-proxies}, {@code --proxy-protocol} and the {@code --access-log} options. Immutable.
 *
 * @param action           what to do
 * @param bindAddress      address to listen on, as given (default {@code 127.0.0.1})
 * @param bindDefaulted    whether {@code -b} was absent
 * @param port             port to listen on, 0–65535 (default 8000)
 * @param directory        directory to serve, absolute (default the current directory)
 * @param output           what to print per request
 * @param tls              whether to serve HTTPS
 * @param keystore         keystore with the key and certificate, or null for a self-signed one
 * @param keystorePassword password of the keystore, or null
 * @param http2            whether to offer HTTP/2 (h2 by ALPN with TLS, h2c without)
 * @param listen           the {@code --listen} addresses in order, or empty to listen as {@code -b}, {@code -p} and
 *                         {@code --tls} say
 * @param trustedProxies   proxies whose forwarded headers are believed, or null to ignore those headers
 * @param proxyProtocol    whether every connection must start with a PROXY protocol header
 * @param accessLog        the server's access log (off unless an {@code --access-log} option is given)
 */
record CommandLineOptions(Action action, String bindAddress, boolean bindDefaulted, int port, Path directory,
                          Output output, boolean tls, Path keystore, String keystorePassword, boolean http2,
                          List<Endpoint> listen, String trustedProxies, boolean proxyProtocol,
                          AccessLogConfig accessLog) {

    /** Most {@code --listen} options. */
    static final int MAX_LISTEN = 16;

    /** One place to listen: {@code http://host:port} or {@code https://host:port} ({@code [v6]:port}). */
    record Endpoint(boolean tls, String host, int port) {

        static Endpoint parse(String url) throws UsageException {
            boolean tls = url.startsWith("https://");
            if (!tls && !url.startsWith("http://")) {
                throw new UsageException("--listen takes http://host:port or https://host:port, not " + url);
            }
            String hostPort = url.substring(tls ? 8 : 7);
            int colon = hostPort.lastIndexOf(':');
            String host = colon > 0 ? hostPort.substring(0, colon) : "";
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            if (host.isEmpty() || host.contains("/")) {
                throw new UsageException("--listen takes http://host:port or https://host:port, not " + url);
            }
            return new Endpoint(tls, host, CommandLineOptions.port(hostPort.substring(colon + 1)));
        }
    }

    /** Where to listen: the {@code --listen} addresses, else the one of {@code -b}, {@code -p} and {@code --tls}. */
    List<Endpoint> endpoints() {
        return listen.isEmpty() ? List.of(new Endpoint(tls, bindAddress, port)) : listen;
    }

    /** Whether some endpoint is TLS. */
    boolean anyTls() {
        return endpoints().stream().anyMatch(Endpoint::tls);
    }

    /** What the command line asks for. */
    enum Action { SERVE, HELP, VERSION }

    /** The {@code -o} levels. */
    enum Output { NONE, INFO, VERBOSE }

    /** Environment variable read when {@code --keystore-password} is absent. */
    static final String PASSWORD_ENV = "WEFT_KEYSTORE_PASSWORD";

    /** A command line that cannot be used; the message says why. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /**
     * Parses {@code args}.
     *
     * @param passwordEnv value of {@link #PASSWORD_ENV}, or null
     */
    static CommandLineOptions parse(String[] args, String passwordEnv) throws UsageException {
        String bind = null;
        int port = 8000;
        Path directory = Path.of("").toAbsolutePath();
        Output output = Output.INFO;
        boolean tls = false;
        boolean http2 = false;
        Path keystore = null;
        String password = null;
        boolean bindOrPortOrTls = false;
        List<Endpoint> listen = new ArrayList<>();
        String trustedProxies = null;
        boolean proxyProtocol = false;
        AccessLogConfig.Builder log = AccessLogConfig.builder();
        boolean logged = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-h", "-?", "--help" -> {
                    return new CommandLineOptions(Action.HELP, null, true, 0, null, null, false, null, null, false, List.of(),
                            null, false, null);
                }
                case "-version", "--version" -> {
                    return new CommandLineOptions(Action.VERSION, null, true, 0, null, null, false, null, null, false, List.of(),
                            null, false, null);
                }
                case "-b", "--bind-address" -> {
                    bind = value(args, ++i, a);
                    bindOrPortOrTls = true;
                }
                case "-p", "--port" -> {
                    port = port(value(args, ++i, a));
                    bindOrPortOrTls = true;
                }
                case "--listen" -> {
                    if (listen.size() == MAX_LISTEN) {
                        throw new UsageException("at most " + MAX_LISTEN + " --listen");
                    }
                    listen.add(Endpoint.parse(value(args, ++i, a)));
                }
                case "-d", "--directory" -> directory = Path.of(value(args, ++i, a)).toAbsolutePath().normalize();
                case "-o", "--output" -> output = output(value(args, ++i, a));
                case "--tls" -> {
                    tls = true;
                    bindOrPortOrTls = true;
                }
                case "--keystore" -> keystore = Path.of(value(args, ++i, a)).toAbsolutePath();
                case "--keystore-password" -> password = value(args, ++i, a);
                case "--http2" -> http2 = true;
                case "--trusted-proxies" -> trustedProxies = value(args, ++i, a);
                case "--proxy-protocol" -> proxyProtocol = true;
                case "--access-log" -> logged = true;
                case "--access-log-file" -> {
                    log.file(Path.of(value(args, ++i, a)).toAbsolutePath().toString());
                    logged = true;
                }
                case "--access-log-pattern" -> {
                    log.pattern(value(args, ++i, a));
                    logged = true;
                }
                case "--access-log-rotate" -> log.rotateDaily(rotation(value(args, ++i, a)));
                case "--access-log-max-size" -> log.maxFileSize(size(value(args, ++i, a), a));
                case "--access-log-max-files" -> log.maxFiles((int) Math.min(Integer.MAX_VALUE,
                        size(value(args, ++i, a), a)));
                default -> throw new UsageException("unknown option: " + a);
            }
        }
        if (!listen.isEmpty() && bindOrPortOrTls) {
            throw new UsageException("--listen gives address, port and scheme: not with -b, -p or --tls");
        }
        if (listen.isEmpty() && keystore != null) {
            tls = true;
        } else if (keystore != null && listen.stream().noneMatch(Endpoint::tls)) {
            throw new UsageException("--keystore needs an https:// --listen");
        }
        if (password != null && keystore == null) {
            throw new UsageException("--keystore-password needs --keystore");
        }
        if (keystore != null && password == null) {
            password = passwordEnv;
            if (password == null) {
                throw new UsageException("--keystore needs --keystore-password or the environment variable "
                        + PASSWORD_ENV);
            }
        }
        AccessLogConfig accessLog;
        try {
            accessLog = log.enabled(logged).build();
        } catch (IllegalArgumentException e) {
            throw new UsageException("invalid access log option: " + e.getMessage());
        }
        return new CommandLineOptions(Action.SERVE, bind == null ? "127.0.0.1" : bind, bind == null && listen.isEmpty(), port,
                directory, output, tls, keystore, password, http2, List.copyOf(listen), trustedProxies, proxyProtocol,
                accessLog);
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length) {
            throw new UsageException("no value given for " + option);
        }
        return args[i];
    }

    private static int port(String s) throws UsageException {
        try {
            int p = Integer.parseInt(s);
            if (p >= 0 && p <= 65535) {
                return p;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException("invalid port: " + s + " (0 to 65535)");
    }

    private static Output output(String s) throws UsageException {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "none" -> Output.NONE;
            case "info" -> Output.INFO;
            case "verbose" -> Output.VERBOSE;
            default -> throw new UsageException("invalid output level: " + s + " (none, info or verbose)");
        };
    }

    private static boolean rotation(String s) throws UsageException {
        return switch (s.toLowerCase(Locale.ROOT)) {
            case "daily" -> true;
            case "size" -> false;
            default -> throw new UsageException("invalid access log rotation: " + s + " (daily or size)");
        };
    }

    /** A number, with an optional {@code k}, {@code m} or {@code g} for KiB, MiB, GiB. */
    private static long size(String s, String option) throws UsageException {
        String t = s.strip().toLowerCase(Locale.ROOT);
        int shift = t.endsWith("k") ? 10 : t.endsWith("m") ? 20 : t.endsWith("g") ? 30 : 0;
        try {
            long n = Long.parseLong(shift == 0 ? t : t.substring(0, t.length() - 1));
            if (n >= 0 && n <= Long.MAX_VALUE >> shift) {
                return n << shift;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException("invalid value for " + option + ": " + s);
    }

    @Override
    public String toString() {
        // the password stays out of logs and error messages
        return "CommandLineOptions[" + action + ", " + endpoints() + ", " + directory + ", " + output
                + ", tls=" + tls + ", keystore=" + keystore + ", http2=" + http2 + ", trustedProxies=" + trustedProxies
                + ", proxyProtocol=" + proxyProtocol + ", accessLog=" + accessLog + "]";
    }
}
