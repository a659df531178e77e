package dev.weft.httpserver.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.AccessLogLines;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.Test;

/** An HTTP/2 stream's exchange is logged like any other, with its protocol, referer and user agent. */
class Http2AccessLogTest {

    @Test
    void anHttp2ExchangeIsLoggedInTheCombinedFormat() throws Exception {
        try (AccessLogLines log = AccessLogLines.capture();
             TestServer server = TestServer.builder().config(ServerConfig.builder().accessLog(true).build())
                     .handle("/", exchange -> TestServer.respond(exchange, 200, "hello")).start()) {
            Http2Cli.Curl curl = Http2Cli.curl(false, server.uri("/h2/logged?x=1").toString(),
                    "-A", "weft-h2-test", "-e", "https://referrer.example/");
            assertEquals(200, curl.status(), curl::toString);
            assertEquals("2", curl.httpVersion(), curl::toString);

            String line = log.until("/h2/logged?x=1");
            assertTrue(line.contains("\"GET /h2/logged?x=1 HTTP/2.0\" 200 5 \"https://referrer.example/\" "
                    + "\"weft-h2-test\""), line);
        }
    }
}
