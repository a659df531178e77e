package dev.weft.spring.boot.reactive;

import com.sun.net.httpserver.Headers;
import org.junit.jupiter.api.Test;
import org.springframework.boot.web.server.Compression;
import org.springframework.util.MimeType;
import org.springframework.util.unit.DataSize;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The rule deciding which responses are gzipped. */
class WeftCompressionTest {

    private final WeftCompression compression = new WeftCompression(true,
            List.of(MimeType.valueOf("application/json"), MimeType.valueOf("text/*")), 100, List.of("Old.*"));

    @Test
    void fromBootCompressionCopiesEverySetting() {
        Compression boot = new Compression();
        boot.setEnabled(true);
        boot.setMimeTypes(new String[] {"application/json"});
        boot.setAdditionalMimeTypes(new String[] {"application/x-ndjson"});
        boot.setMinResponseSize(DataSize.ofKilobytes(4));
        boot.setExcludedUserAgents(new String[] {"curl/7.0"});

        WeftCompression weft = WeftCompression.from(boot);

        assertThat(weft.enabled()).isTrue();
        assertThat(weft.mimeTypes()).containsExactlyInAnyOrder(
                MimeType.valueOf("application/json"), MimeType.valueOf("application/x-ndjson"));
        assertThat(weft.minResponseSize()).isEqualTo(4096);
        assertThat(weft.excludedUserAgents()).containsExactly("curl/7.0");
    }

    @Test
    void missingOrDisabledBootCompressionIsDisabled() {
        assertThat(WeftCompression.from(null)).isEqualTo(WeftCompression.DISABLED);
        assertThat(WeftCompression.from(new Compression())).isEqualTo(WeftCompression.DISABLED);
        assertThat(WeftCompression.DISABLED.shouldCompress("GET", request("gzip", null), 200,
                response("application/json"), -1)).isFalse();
    }

    @Test
    void matchingTypeIgnoresParametersAndHonoursWildcards() {
        assertThat(decide(request("gzip", null), 200, response("application/json;charset=UTF-8"), 500)).isTrue();
        assertThat(decide(request("gzip", null), 200, response("text/html"), 500)).isTrue();
        assertThat(decide(request("gzip", null), 200, response("image/png"), 500)).isFalse();
        assertThat(decide(request("gzip", null), 200, response("not a type"), 500)).isFalse();
        assertThat(decide(request("gzip", null), 200, new Headers(), 500)).isFalse();
    }

    @Test
    void knownLengthMustReachTheMinimumButUnknownLengthIsCompressed() {
        assertThat(decide(request("gzip", null), 200, response("text/plain"), 99)).isFalse();
        assertThat(decide(request("gzip", null), 200, response("text/plain"), 100)).isTrue();
        assertThat(decide(request("gzip", null), 200, response("text/plain"), -1)).isTrue();
    }

    @Test
    void statusesWithoutBodyHeadAndEncodedOrRangeResponsesAreLeftAlone() {
        for (int status : new int[] {101, 204, 304}) {
            assertThat(decide(request("gzip", null), status, response("text/plain"), -1)).isFalse();
        }
        assertThat(compression.shouldCompress("HEAD", request("gzip", null), 200, response("text/plain"), -1))
                .isFalse();
        Headers encoded = response("text/plain");
        encoded.set("Content-Encoding", "br");
        assertThat(decide(request("gzip", null), 200, encoded, -1)).isFalse();
        Headers range = response("text/plain");
        range.set("Content-Range", "bytes 0-9/100");
        assertThat(decide(request("gzip", null), 206, range, 10)).isFalse();
    }

    @Test
    void acceptEncodingWeightsAreHonoured() {
        assertThat(WeftCompression.acceptsGzip(List.of("gzip, deflate, br"))).isTrue();
        assertThat(WeftCompression.acceptsGzip(List.of("deflate", "GZIP;q=0.5"))).isTrue();
        assertThat(WeftCompression.acceptsGzip(List.of("*"))).isTrue();
        assertThat(WeftCompression.acceptsGzip(List.of("gzip;q=0, *"))).isFalse();
        assertThat(WeftCompression.acceptsGzip(List.of("*;q=0"))).isFalse();
        assertThat(WeftCompression.acceptsGzip(List.of("identity"))).isFalse();
        assertThat(WeftCompression.acceptsGzip(null)).isFalse();
    }

    @Test
    void excludedUserAgentsMatchExactlyOrAsRegularExpression() {
        WeftCompression exact = new WeftCompression(true, List.of(MimeType.valueOf("text/plain")), 0,
                List.of("Bot/1.0 (x)"));
        assertThat(exact.shouldCompress("GET", request("gzip", "Bot/1.0 (x)"), 200, response("text/plain"), -1))
                .isFalse();
        assertThat(decide(request("gzip", "OldBrowser/2"), 200, response("text/plain"), -1)).isFalse();
        assertThat(decide(request("gzip", "NewBrowser/2"), 200, response("text/plain"), -1)).isTrue();
    }

    private boolean decide(Headers request, int status, Headers response, long length) {
        return compression.shouldCompress("GET", request, status, response, length);
    }

    private static Headers request(String acceptEncoding, String userAgent) {
        Headers headers = new Headers();
        headers.set("Accept-Encoding", acceptEncoding);
        if (userAgent != null) {
            headers.set("User-Agent", userAgent);
        }
        return headers;
    }

    private static Headers response(String contentType) {
        Headers headers = new Headers();
        headers.set("Content-Type", contentType);
        return headers;
    }
}
