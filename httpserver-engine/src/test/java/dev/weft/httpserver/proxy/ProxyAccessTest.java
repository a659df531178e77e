package dev.weft.httpserver.proxy;

import com.sun.net.httpserver.BasicAuthenticator;
import dev.weft.httpserver.testing.TestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Who and what the proxy lets through: allow-lists, private ranges, proxy authorization, loops. */
class ProxyAccessTest {

    private static TestServer origin;

    @BeforeAll
    static void start() throws IOException {
        origin = TestServer.start();
    }

    @AfterAll
    static void stop() {
        origin.close();
    }

    private static BasicAuthenticator users() {
        return new BasicAuthenticator("weft-proxy") {
            @Override
            public boolean checkCredentials(String user, String password) {
                return user.equals("alice") && password.equals("s3cret");
            }
        };
    }

    @Test
    void loopbackTargetIsDeniedByDefault() throws Exception {
        try (ProxyServers proxy = ProxyServers.start(ProxyConfig.builder().forwardPorts("1-65535").build())) {
            ProxyServers.Curl r = ProxyServers.curl("-x", proxy.url(), origin.uri("/private").toString());
            assertEquals(403, r.status(), r::stderr);
            assertTrue(r.body().contains("private or special-purpose range"), r.body());
            assertEquals(1, proxy.awaitStats(s -> s.denied() == 1).denied());
            assertEquals(0, proxy.stats().requestsForwarded());
        }
    }

    @Test
    void connectToAPortOutsideTheListIsDenied() throws Exception {
        try (ProxyServers proxy = ProxyServers.start(ProxyConfig.builder().allowedHosts("127.0.0.1").build())) {
            ProxyServers.Curl r = ProxyServers.curl("-p", "-x", proxy.url(), origin.uri("/").toString());
            assertNotEquals(0, r.exit(), "the tunnel was refused");
            assertTrue(r.stderr().contains("403"), r::stderr);
            assertEquals(1, proxy.awaitStats(s -> s.denied() == 1).denied());
            assertEquals(0, proxy.stats().tunnelsOpened());
        }
    }

    @Test
    void allowedNameResolvingToAPrivateAddressIsDenied() throws Exception {
        // DNS rebinding: the name is allowed, but it resolves to loopback, which no address entry covers.
        ProxyConfig config = ProxyConfig.builder().allowedHosts("rebind.test").forwardPorts("1-65535")
                .resolver(host -> List.of(InetAddress.getLoopbackAddress())).build();
        try (ProxyServers proxy = ProxyServers.start(config)) {
            ProxyServers.Curl r = ProxyServers.curl("-x", proxy.url(),
                    "http://rebind.test:" + origin.port() + "/");
            assertEquals(403, r.status(), r::stderr);
        }
        ProxyConfig covered = ProxyConfig.builder().allowedHosts("rebind.test", "127.0.0.0/8").forwardPorts("1-65535")
                .resolver(host -> List.of(InetAddress.getLoopbackAddress())).build();
        try (ProxyServers proxy = ProxyServers.start(covered)) {
            ProxyServers.Curl r = ProxyServers.curl("-x", proxy.url(), "http://rebind.test:" + origin.port() + "/x");
            assertEquals(200, r.status(), r::stderr);
            assertTrue(r.body().contains("header Host: rebind.test:" + origin.port()), r.body());
        }
    }

    @Test
    void hostOutsideTheAllowListIsDenied() throws Exception {
        // Only a.example.test resolves into the one address block allowed; the others resolve elsewhere.
        InetAddress allowed = InetAddress.getByName("127.0.0.1");
        InetAddress elsewhere = InetAddress.getByName("127.0.0.2");
        ProxyConfig config = ProxyConfig.builder().allowedHosts("*.example.test", "127.0.0.1")
                .forwardPorts("1-65535")
                .resolver(host -> List.of(host.equals("a.example.test") ? allowed : elsewhere)).build();
        try (ProxyServers proxy = ProxyServers.start(config)) {
            ProxyServers.Curl other = ProxyServers.curl("-x", proxy.url(), "http://other.test:" + origin.port() + "/");
            assertEquals(403, other.status(), other::stderr);
            assertTrue(other.body().contains("host other.test is not allowed"), other.body());
            assertEquals(403, ProxyServers.curl("-x", proxy.url(), "http://example.test:" + origin.port() + "/").status());
            assertEquals(200, ProxyServers.curl("-x", proxy.url(), "http://a.example.test:" + origin.port() + "/").status());
        }
    }

    @Test
    void proxyAuthenticationFlowWithCurl() throws Exception {
        try (ProxyServers proxy = ProxyServers.start(ProxyServers.loopbackAllowed().authenticator(users()).build())) {
            String target = origin.uri("/authorized").toString();
            ProxyServers.Curl none = ProxyServers.curl("-i", "-x", proxy.url(), target);
            assertEquals(407, none.status(), none::stderr);
            String head = none.body().toLowerCase(java.util.Locale.ROOT);
            assertTrue(head.contains("proxy-authenticate: basic realm=\"weft-proxy\""), none.body());
            assertFalse(head.contains("www-authenticate"), none.body());

            ProxyServers.Curl wrong = ProxyServers.curl("-x", proxy.url(), "--proxy-user", "alice:wrong", target);
            assertEquals(407, wrong.status(), wrong::stderr);

            ProxyServers.Curl right = ProxyServers.curl("-x", proxy.url(), "--proxy-user", "alice:s3cret", target);
            assertEquals(200, right.status(), right::stderr);
            assertFalse(right.body().contains("Proxy-authorization"), "never forwarded: " + right.body());

            // --proxy-anyauth: curl asks without credentials first, then answers the 407 challenge.
            ProxyServers.Curl dance = ProxyServers.curl("-x", proxy.url(), "--proxy-anyauth", "--proxy-user",
                    "alice:s3cret", target);
            assertEquals(200, dance.status(), dance::stderr);

            ProxyServers.Curl tunnel = ProxyServers.curl("-p", "-x", proxy.url(), "--proxy-user", "alice:s3cret",
                    origin.uri("/through-tunnel").toString());
            assertEquals(200, tunnel.status(), tunnel::stderr);
            ProxyServers.Curl refusedTunnel = ProxyServers.curl("-p", "-x", proxy.url(), origin.uri("/").toString());
            assertTrue(refusedTunnel.stderr().contains("407"), refusedTunnel::stderr);
            assertTrue(proxy.stats().denied() >= 3, proxy.stats()::toString);
        }
    }

    @Test
    void websocketsClientAuthenticatesToTheProxy() throws Exception {
        try (ProxyServers proxy = ProxyServers.start(ProxyServers.loopbackAllowed().authenticator(users()).build())) {
            var ok = ProxyTunnelTest.runWebSocketScript("http://alice:s3cret@127.0.0.1:" + proxy.port());
            assertTrue(ok.stdout().contains("\"ok\": true"), ok::describe);
            var refused = ProxyTunnelTest.runWebSocketScript("http://alice:nope@127.0.0.1:" + proxy.port());
            assertTrue(refused.stdout().contains("407"), refused::describe);
        }
    }

    @Test
    void requestToTheProxyItselfIsALoop() throws Exception {
        try (ProxyServers proxy = ProxyServers.start(ProxyServers.loopbackAllowed().build())) {
            ProxyServers.Curl r = ProxyServers.curl("-x", proxy.url(), proxy.url() + "/again");
            assertEquals(508, r.status(), r::stderr);
            ProxyServers.Curl via = ProxyServers.curl("-x", proxy.url(), "-H", "Via: 1.1 other, 1.1 weft",
                    origin.uri("/").toString());
            assertEquals(508, via.status(), via::stderr);
        }
    }
}
