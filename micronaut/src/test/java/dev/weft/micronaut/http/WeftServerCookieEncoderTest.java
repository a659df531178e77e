package dev.weft.micronaut.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.cookie.SameSite;
import io.micronaut.http.netty.cookies.NettyServerCookieEncoder;
import org.junit.jupiter.api.Test;

import java.util.List;

/** Weft's {@code Set-Cookie} values are the ones Micronaut's Netty encoder writes. */
class WeftServerCookieEncoderTest {

    private final WeftServerCookieEncoder weft = new WeftServerCookieEncoder();
    private final NettyServerCookieEncoder netty = new NettyServerCookieEncoder();

    @Test
    void everyAttributeIsWrittenAsNettyWritesIt() {
        List<Cookie> cookies = List.of(
                Cookie.of("plain", "v"),
                Cookie.of("session", "abc123").path("/").httpOnly(true),
                Cookie.of("prefs", "dark").domain("example.com").path("/app").secure(true).httpOnly(true)
                        .sameSite(SameSite.Strict),
                Cookie.of("lax", "1").sameSite(SameSite.Lax).secure(true),
                Cookie.of("HttpOnly", "HttpOnly").httpOnly(false),
                Cookie.of("gone", "").maxAge(0).path("/"));
        for (Cookie cookie : cookies) {
            assertThat(weft.encode(cookie)).as(cookie.getName()).isEqualTo(netty.encode(cookie));
        }
    }

    @Test
    void anExpiringCookieHasNettysMaxAgeAndExpiresAttributes() {
        Cookie cookie = Cookie.of("ttl", "x").maxAge(3600).httpOnly(true);
        // Expires is computed from the clock on each call: compare all but its date
        assertThat(withoutExpiresDate(weft.encode(cookie))).isEqualTo(withoutExpiresDate(netty.encode(cookie)));
        assertThat(weft.encode(cookie).get(0)).startsWith("ttl=x; Max-Age=3600; Expires=").endsWith("; HTTPOnly");
    }

    private static List<String> withoutExpiresDate(List<String> values) {
        return values.stream().map(v -> v.replaceAll("Expires=[^;]*", "Expires=*")).toList();
    }
}
