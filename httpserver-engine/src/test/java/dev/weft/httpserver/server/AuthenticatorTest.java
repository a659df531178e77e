package dev.weft.httpserver.server;

import com.sun.net.httpserver.Authenticator;
import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpPrincipal;
import com.sun.net.httpserver.HttpServer;
import dev.weft.httpserver.Weft;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.testing.RawHttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.weft.httpserver.testing.TestServer.respond;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A context's Authenticator guards its handler, ahead of the user filters. */
@Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AuthenticatorTest {

    private static final String REALM = "test-realm";

    private HttpServer server;

    @BeforeEach
    void start() throws IOException {
        server = Weft.createHttpServer(new InetSocketAddress("127.0.0.1", 0), 0, ServerConfig.defaults());
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private static final class Basic extends BasicAuthenticator {
        Basic() {
            super(REALM);
        }

        @Override
        public boolean checkCredentials(String user, String password) {
            return "alice".equals(user) && "s3cret".equals(password);
        }
    }

    private static HttpHandler principalEcho(AtomicBoolean ran) {
        return ex -> {
            ran.set(true);
            HttpPrincipal p = ex.getPrincipal();
            String body = p == null ? "none" : p.getUsername() + "@" + p.getRealm() + " " + p.getName();
            respond(ex, 200, body);
        };
    }

    private RawHttpClient.Response get(String path, String extraHeaders) throws IOException {
        try (RawHttpClient c = RawHttpClient.connect(server.getAddress().getPort())) {
            c.send("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n" + extraHeaders + "\r\n");
            return c.readResponse();
        }
    }

    private static String basic(String user, String password) {
        String token = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
        return "Authorization: Basic " + token + "\r\n";
    }

    @Test
    void basicAuthenticatorChallengesWithoutCredentials() throws IOException {
        AtomicBoolean ran = new AtomicBoolean();
        server.createContext("/basic", principalEcho(ran)).setAuthenticator(new Basic());

        RawHttpClient.Response r = get("/basic", "");

        assertEquals(401, r.status());
        String challenge = r.header("WWW-Authenticate");
        assertNotNull(challenge, r::toString);
        assertTrue(challenge.startsWith("Basic realm=\"" + REALM + "\""), challenge);
        assertFalse(ran.get());
    }

    @Test
    void basicAuthenticatorRejectsWrongPassword() throws IOException {
        AtomicBoolean ran = new AtomicBoolean();
        server.createContext("/basic", principalEcho(ran)).setAuthenticator(new Basic());

        RawHttpClient.Response r = get("/basic", basic("alice", "wrong"));

        assertEquals(401, r.status());
        assertNotNull(r.header("WWW-Authenticate"), r::toString);
        assertFalse(ran.get());
    }

    @Test
    void basicAuthenticatorSuccessGivesHandlerThePrincipal() throws IOException {
        AtomicBoolean ran = new AtomicBoolean();
        server.createContext("/basic", principalEcho(ran)).setAuthenticator(new Basic());

        RawHttpClient.Response r = get("/basic", basic("alice", "s3cret"));

        assertEquals(200, r.status(), r::toString);
        assertEquals("alice@" + REALM + " " + REALM + ":alice", r.bodyText());
        assertTrue(ran.get());
    }

    @Test
    void customAuthenticatorRetryAnswersItsCode() throws IOException {
        AtomicBoolean ran = new AtomicBoolean();
        server.createContext("/retry", principalEcho(ran)).setAuthenticator(new Authenticator() {
            @Override
            public Result authenticate(HttpExchange ex) {
                ex.getResponseHeaders().set("WWW-Authenticate", "Custom realm=\"x\"");
                return new Retry(401);
            }
        });

        RawHttpClient.Response r = get("/retry", "");

        assertEquals(401, r.status());
        assertEquals("Custom realm=\"x\"", r.header("WWW-Authenticate"));
        assertFalse(ran.get());
    }

    @Test
    void customAuthenticatorFailureAnswersItsCode() throws IOException {
        AtomicBoolean ran = new AtomicBoolean();
        server.createContext("/fail", principalEcho(ran)).setAuthenticator(new Authenticator() {
            @Override
            public Result authenticate(HttpExchange ex) {
                return new Failure(403);
            }
        });

        RawHttpClient.Response r = get("/fail", "");

        assertEquals(403, r.status());
        assertFalse(ran.get());
    }

    @Test
    void customAuthenticatorSuccessPrincipalReachesHandler() throws IOException {
        AtomicBoolean ran = new AtomicBoolean();
        server.createContext("/ok", principalEcho(ran)).setAuthenticator(new Authenticator() {
            @Override
            public Result authenticate(HttpExchange ex) {
                return new Success(new HttpPrincipal("bob", "custom"));
            }
        });

        assertEquals("bob@custom custom:bob", get("/ok", "").bodyText());
    }

    /** As in the JDK, where the authenticator is a system filter chained after the user's filters. */
    @Test
    void userFiltersRunBeforeTheAuthenticator() throws IOException {
        List<String> log = new CopyOnWriteArrayList<>();
        HttpContext ctx = server.createContext("/order", ex -> {
            log.add("handler");
            respond(ex, 200, "ok");
        });
        ctx.getFilters().add(Filter.beforeHandler("user-filter", ex -> log.add("filter")));
        ctx.setAuthenticator(new Authenticator() {
            @Override
            public Result authenticate(HttpExchange ex) {
                log.add("auth");
                return "let-me-in".equals(ex.getRequestHeaders().getFirst("X-Key"))
                        ? new Success(new HttpPrincipal("u", "r"))
                        : new Failure(403);
            }
        });

        assertEquals(403, get("/order", "").status());
        assertEquals(List.of("filter", "auth"), log);

        log.clear();
        assertEquals(200, get("/order", "X-Key: let-me-in\r\n").status());
        assertEquals(List.of("filter", "auth", "handler"), log);
    }
}
