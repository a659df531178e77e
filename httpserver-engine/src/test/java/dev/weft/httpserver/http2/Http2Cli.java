package dev.weft.httpserver.http2;

import dev.weft.httpserver.testing.ExternalTools;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** curl, nghttp and h2load (Debian's curl and nghttp2-client) against the test servers. */
final class Http2Cli {

    private static final Duration TIMEOUT = Duration.ofSeconds(120);

    private Http2Cli() {
    }

    /** What curl did: its exit code, the body it printed, the HTTP version and status of its {@code -w}. */
    record Curl(ExternalTools.Result result, String body, String httpVersion, int status) {
        int exit() {
            return result.exit();
        }

        @Override
        public String toString() {
            return result.describe();
        }
    }

    /**
     * curl with HTTP/2: {@code --http2 -k} (ALPN) over TLS, {@code --http2-prior-knowledge} on cleartext; the
     * body goes to stdout unless {@code args} redirect it.
     */
    static Curl curl(boolean overTls, String url, String... args) {
        List<String> cmd = new ArrayList<>(List.of(ExternalTools.require("curl").toString(), "-sS",
                "--max-time", "90", overTls ? "--http2" : "--http2-prior-knowledge"));
        if (overTls) {
            cmd.add("-k");
        }
        cmd.addAll(List.of("-w", "\n@@curl %{http_version} %{response_code}"));
        cmd.addAll(List.of(args));
        cmd.add(url);
        ExternalTools.Result r = ExternalTools.run(cmd, TIMEOUT);
        String out = r.stdout();
        int at = out.lastIndexOf("\n@@curl ");
        if (at < 0) {
            return new Curl(r, out, "", 0);
        }
        String[] w = out.substring(at + "\n@@curl ".length()).strip().split(" ");
        return new Curl(r, out.substring(0, at), w[0], w.length > 1 ? Integer.parseInt(w[1]) : 0);
    }

    /** nghttp with these arguments then the URL (prior knowledge for http://, ALPN h2 for https://). */
    static ExternalTools.Result nghttp(String url, String... args) {
        List<String> cmd = new ArrayList<>(List.of(ExternalTools.require("nghttp").toString(), "-t", "60"));
        cmd.addAll(List.of(args));
        cmd.add(url);
        return ExternalTools.run(cmd, TIMEOUT);
    }

    /** h2load with these arguments then the URL. */
    static ExternalTools.Result h2load(String url, String... args) {
        List<String> cmd = new ArrayList<>(List.of(ExternalTools.require("h2load").toString()));
        cmd.addAll(List.of(args));
        cmd.add(url);
        return ExternalTools.run(cmd, TIMEOUT);
    }
}
