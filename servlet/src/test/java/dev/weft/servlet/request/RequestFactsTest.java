package dev.weft.servlet.request;

import dev.weft.servlet.testing.Curl;
import dev.weft.servlet.testing.Http;
import dev.weft.servlet.testing.ServletServer;
import dev.weft.servlet.testing.Servlets;
import dev.weft.servlet.testing.Tls;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the request tells of its client and connection: cookies, locales, host, addresses, TLS, trailers. */
class RequestFactsTest {

    /** A servlet answering {@code key=value} lines of whatever {@code report} writes. */
    private static HttpServlet reporting(Consumer<Report> report) {
        return Servlets.of((req, resp) -> {
            resp.setContentType("text/plain;charset=UTF-8");
            report.accept(new Report(req, resp.getWriter()));
        });
    }

    record Report(HttpServletRequest req, PrintWriter out) {
        void put(String key, Object value) {
            out.println(key + "=" + value);
        }
    }

    private static Map<String, String> lines(String body) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : body.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                m.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return m;
    }

    private static ServletServer facts(boolean tls) throws IOException {
        Consumer<dev.weft.servlet.ServletContainerConfig.Builder> config = b -> b.initializer((classes, ctx) ->
                ctx.addServlet("facts", reporting(r -> {
                    HttpServletRequest q = r.req();
                    r.put("scheme", q.getScheme());
                    r.put("secure", q.isSecure());
                    r.put("serverName", q.getServerName());
                    r.put("serverPort", q.getServerPort());
                    r.put("remoteAddr", q.getRemoteAddr());
                    r.put("remotePort", q.getRemotePort());
                    r.put("localAddr", q.getLocalAddr());
                    r.put("localPort", q.getLocalPort());
                    r.put("protocol", q.getProtocol());
                    r.put("requestId", q.getRequestId());
                    r.put("connection.protocol", q.getServletConnection().getProtocol());
                    r.put("connection.secure", q.getServletConnection().isSecure());
                    r.put("connection.id", q.getServletConnection().getConnectionId());
                    r.put("protocolRequestId", q.getProtocolRequestId());
                    r.put("locale", q.getLocale().toLanguageTag());
                    r.put("locales", String.join(",", Collections.list(q.getLocales()).stream()
                            .map(java.util.Locale::toLanguageTag).toList()));
                    Cookie[] cookies = q.getCookies();
                    if (cookies != null) {
                        for (Cookie c : cookies) {
                            r.put("cookie." + c.getName(), c.getValue());
                        }
                    }
                    r.put("cipher", q.getAttribute("jakarta.servlet.request.cipher_suite"));
                    r.put("keySize", q.getAttribute("jakarta.servlet.request.key_size"));
                    r.put("tlsProtocol", q.getAttribute("jakarta.servlet.request.secure_protocol"));
                    r.put("sessionId", q.getAttribute("jakarta.servlet.request.ssl_session_id") != null);
                    X509Certificate[] certs = (X509Certificate[]) q.getAttribute("jakarta.servlet.request.X509Certificate");
                    r.put("clientCert", certs == null ? null : certs[0].getSubjectX500Principal().getName());
                    r.put("url", q.getRequestURL());
                })).addMapping("/facts"));
        return tls ? ServletServer.startTls(config) : ServletServer.start(config);
    }

    @Test
    void cookiesLocalesAndAddressesOverCleartextHttp1() throws Exception {
        try (ServletServer s = facts(false)) {
            Curl c = Curl.ok("-H", "Cookie: a=1; b=\"two\"; junk; c=3", "-H",
                    "Accept-Language: fr-CH, fr;q=0.9, en;q=0.8, *;q=0.5, de;q=0",
                    "http://127.0.0.1:" + s.port() + "/facts");
            Map<String, String> r = lines(c.out());
            assertEquals("1", r.get("cookie.a"));
            assertEquals("two", r.get("cookie.b"));
            assertEquals("3", r.get("cookie.c"));
            assertEquals("fr-CH", r.get("locale"));
            assertEquals("fr-CH,fr,en", r.get("locales"));
            assertEquals("http", r.get("scheme"));
            assertEquals("false", r.get("secure"));
            assertEquals("127.0.0.1", r.get("serverName"));
            assertEquals(String.valueOf(s.port()), r.get("serverPort"));
            assertEquals("127.0.0.1", r.get("remoteAddr"));
            assertEquals(String.valueOf(s.port()), r.get("localPort"));
            assertEquals("HTTP/1.1", r.get("protocol"));
            assertEquals("http/1.1", r.get("connection.protocol"));
            assertEquals("null", r.get("cipher"));
            assertEquals("null", r.get("clientCert"));
        }
    }

    @Test
    void withoutAcceptLanguageTheLocaleIsTheDefault() throws Exception {
        try (ServletServer s = facts(false)) {
            Map<String, String> r = lines(Http.get(s.uri("/facts")).body());
            assertEquals(java.util.Locale.getDefault().toLanguageTag(), r.get("locale"));
        }
    }

    @Test
    void serverNameAndPortComeFromTheHostField() throws Exception {
        try (ServletServer s = facts(false)) {
            String url = "http://127.0.0.1:" + s.port() + "/facts";
            Map<String, String> withPort = lines(Curl.ok("-H", "Host: example.com:8443", url).out());
            assertEquals("example.com", withPort.get("serverName"));
            assertEquals("8443", withPort.get("serverPort"));
            assertEquals("http://example.com:8443/facts", withPort.get("url"));
            Map<String, String> noPort = lines(Curl.ok("-H", "Host: example.com", url).out());
            assertEquals("80", noPort.get("serverPort"));
            assertEquals("http://example.com/facts", noPort.get("url"));
            Map<String, String> v6 = lines(Curl.ok("-H", "Host: [::1]:9000", url).out());
            assertEquals("[::1]", v6.get("serverName"));
            assertEquals("9000", v6.get("serverPort"));
        }
    }

    @Test
    void eachRequestHasItsOwnId() throws Exception {
        try (ServletServer s = facts(false)) {
            String first = lines(Http.get(s.uri("/facts")).body()).get("requestId");
            String second = lines(Http.get(s.uri("/facts")).body()).get("requestId");
            assertNotEquals(first, second);
        }
    }

    @Test
    void requestsOnOneConnectionShareItsIdAndHttp2RequestsCarryTheirStreamId() throws Exception {
        try (ServletServer s = facts(true)) {
            for (HttpClient.Version version : HttpClient.Version.values()) {
                HttpRequest request = HttpRequest.newBuilder(java.net.URI.create(s.localhostUrl("/facts"))).build();
                try (HttpClient client = client(version); HttpClient other = client(version)) {
                    Map<String, String> first = lines(client.send(request, HttpResponse.BodyHandlers.ofString()).body());
                    Map<String, String> second = lines(client.send(request, HttpResponse.BodyHandlers.ofString()).body());
                    Map<String, String> elsewhere = lines(other.send(request, HttpResponse.BodyHandlers.ofString()).body());
                    assertEquals(first.get("connection.id"), second.get("connection.id"), version.toString());
                    assertNotEquals(first.get("connection.id"), elsewhere.get("connection.id"), version.toString());
                    assertNotEquals(first.get("requestId"), second.get("requestId"), version.toString());
                    if (version == HttpClient.Version.HTTP_2) {
                        assertEquals("1", first.get("protocolRequestId"));
                        assertEquals("3", second.get("protocolRequestId"));
                    } else {
                        assertEquals("", first.get("protocolRequestId"));
                    }
                }
            }
        }
    }

    private static HttpClient client(HttpClient.Version version) {
        return HttpClient.newBuilder().sslContext(Tls.shared().clientContext()).version(version)
                .connectTimeout(Duration.ofSeconds(10)).build();
    }

    @Test
    void h2cShowsInTheServletConnection() throws Exception {
        try (ServletServer s = facts(false)) {
            Map<String, String> r = lines(Curl.ok("--http2-prior-knowledge",
                    "http://127.0.0.1:" + s.port() + "/facts").out());
            assertEquals("HTTP/2.0", r.get("protocol"));
            assertEquals("h2c", r.get("connection.protocol"));
        }
    }

    @Test
    void tlsAttributesAndTheClientCertificateOverH2() throws Exception {
        try (ServletServer s = facts(true)) {
            HttpClient client = HttpClient.newBuilder().sslContext(Tls.shared().clientContext())
                    .version(HttpClient.Version.HTTP_2).connectTimeout(Duration.ofSeconds(10)).build();
            HttpResponse<String> resp = client.send(HttpRequest.newBuilder(
                    java.net.URI.create(s.localhostUrl("/facts"))).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, resp.version());
            Map<String, String> r = lines(resp.body());
            assertEquals("https", r.get("scheme"));
            assertEquals("true", r.get("secure"));
            assertEquals("h2", r.get("connection.protocol"));
            assertEquals("true", r.get("connection.secure"));
            assertTrue(r.get("tlsProtocol").startsWith("TLSv1."), r.get("tlsProtocol"));
            assertTrue(r.get("cipher").startsWith("TLS_"), r.get("cipher"));
            assertTrue(r.get("keySize").equals("128") || r.get("keySize").equals("256"), r.get("keySize"));
            assertEquals("true", r.get("sessionId"));
            assertEquals(Tls.CLIENT_NAME, r.get("clientCert"));
            assertEquals("localhost", r.get("serverName"));
        }
    }

    @Test
    void withoutAClientCertificateTheAttributeIsAbsent() throws Exception {
        try (ServletServer s = facts(true)) {
            Curl c = Curl.ok("--cacert", Tls.shared().serverPem.toString(), "--http1.1", s.localhostUrl("/facts"));
            Map<String, String> r = lines(c.out());
            assertEquals("null", r.get("clientCert"));
            assertEquals("http/1.1", r.get("connection.protocol"));
        }
    }

    private static ServletServer trailers() throws IOException {
        return ServletServer.start(b -> b.initializer((classes, ctx) -> ctx.addServlet("trailers", reporting(r -> {
            try {
                r.put("readyBefore", r.req().isTrailerFieldsReady());
                byte[] body = r.req().getInputStream().readAllBytes();
                r.put("body", new String(body, StandardCharsets.UTF_8));
                r.put("readyAfter", r.req().isTrailerFieldsReady());
                r.put("trailers", r.req().getTrailerFields());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        })).addMapping("/trailers")));
    }

    @Test
    void requestTrailersOfAChunkedHttp1BodyAreReadyAfterTheBody() throws Exception {
        try (ServletServer s = trailers(); Socket socket = new Socket("127.0.0.1", s.port())) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /trailers HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                    + "5\r\nhello\r\n0\r\nX-Checksum: abc\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String response = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(response.contains("readyBefore=false"), response);
            assertTrue(response.contains("body=hello"), response);
            assertTrue(response.contains("readyAfter=true"), response);
            assertTrue(response.contains("trailers={x-checksum=abc}"), response);
        }
    }

    @Test
    void requestTrailersOverH2c() throws Exception {
        try (ServletServer s = trailers()) {
            java.nio.file.Path body = java.nio.file.Files.createTempFile("body", ".txt");
            java.nio.file.Files.writeString(body, "hello");
            Process p = new ProcessBuilder("nghttp", "-d", body.toString(), "--trailer=x-checksum: abc",
                    "http://127.0.0.1:" + s.port() + "/trailers").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, p.waitFor());
            assertTrue(out.contains("body=hello"), out);
            assertTrue(out.contains("trailers={x-checksum=abc}"), out);
        }
    }
}
