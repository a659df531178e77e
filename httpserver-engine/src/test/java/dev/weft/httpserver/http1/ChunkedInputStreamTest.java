package dev.weft.httpserver.http1;

import dev.weft.httpserver.core.RequestHeaders;
import dev.weft.httpserver.config.ServerConfig;
import dev.weft.httpserver.core.ConnectionInput;
import dev.weft.httpserver.stats.ProtocolError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ChunkedInputStream} decoding RFC 9112 §7.1 bodies from a byte array, fed whole and byte by byte. */
class ChunkedInputStreamTest {

    /** A drain deadline no test reaches. */
    private static final long FAR_DEADLINE = System.nanoTime() + java.util.concurrent.TimeUnit.HOURS.toNanos(1);

    private static final int MAX_CHUNK_LINE = 20;
    private static final long MAX_BODY = 100;
    private static final int MAX_HEADER_SIZE = 200;
    private static final int MAX_HEADER_COUNT = 3;

    private static final ServerConfig CONFIG = ServerConfig.builder()
            .maxChunkLineLength(MAX_CHUNK_LINE)
            .maxRequestBodySize(MAX_BODY)
            .maxHeaderSize(MAX_HEADER_SIZE)
            .maxHeaderCount(MAX_HEADER_COUNT)
            .build();

    /** The connection input and the body stream over it. */
    private record Body(ConnectionInput in, ChunkedInputStream stream) {
        String decode() throws IOException {
            return new String(stream.readAllBytes(), StandardCharsets.ISO_8859_1);
        }

        /** What the connection still holds after the body. */
        String rest() throws IOException {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static Body body(ByteFeed feed, String wire) {
        return body(feed, wire, CONFIG);
    }

    private static Body body(ByteFeed feed, String wire, ServerConfig config) {
        ConnectionInput in = feed.input(wire, config);
        return new Body(in, new ChunkedInputStream(in, config, null));
    }

    private static BodyException failure(ByteFeed feed, String wire) {
        return assertThrows(BodyException.class, () -> body(feed, wire).decode());
    }

    private static void assertFailure(BodyException e, int status, ProtocolError kind) {
        assertAll(
                () -> assertEquals(status, e.status(), "status (" + e.getMessage() + ")"),
                () -> assertEquals(kind, e.kind(), "kind (" + e.getMessage() + ")"));
    }

    /** {@code length} bytes of body as one chunk per {@code chunkSize} bytes, then the last chunk. */
    private static String chunkedOf(int length, int chunkSize) {
        StringBuilder sb = new StringBuilder();
        for (int done = 0; done < length; done += chunkSize) {
            int n = Math.min(chunkSize, length - done);
            sb.append(Integer.toHexString(n)).append("\r\n").append("d".repeat(n)).append("\r\n");
        }
        return sb.append("0\r\n\r\n").toString();
    }

    // ---------------------------------------------------------------- decoding

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void singleChunkDecodesToItsData(ByteFeed feed) throws IOException {
        assertEquals("hello", body(feed, "5\r\nhello\r\n0\r\n\r\n").decode());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void multipleChunksDecodeInOrder(ByteFeed feed) throws IOException {
        assertEquals("hello, chunked world",
                body(feed, "5\r\nhello\r\n2\r\n, \r\nD\r\nchunked world\r\n0\r\n\r\n").decode());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void hexSizesOfEitherCaseAndLeadingZerosAreAccepted(ByteFeed feed) throws IOException {
        String wire = "a\r\n" + "x".repeat(10) + "\r\n" + "0B\r\n" + "y".repeat(11) + "\r\n0000\r\n\r\n";

        assertEquals("x".repeat(10) + "y".repeat(11), body(feed, wire).decode());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void emptyBodyIsJustTheLastChunk(ByteFeed feed) throws IOException {
        Body b = body(feed, "0\r\n\r\n");

        assertEquals("", b.decode());
        assertTrue(b.stream().isComplete());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void chunkDataMayContainCrLf(ByteFeed feed) throws IOException {
        assertEquals("a\r\nb", body(feed, "4\r\na\r\nb\r\n0\r\n\r\n").decode());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void tokenExtensionsAreSkipped(ByteFeed feed) throws IOException {
        assertEquals("hello", body(feed, "5;a=b;flag\r\nhello\r\n0;last\r\n\r\n").decode());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void quotedExtensionValuesWithEscapesAreSkipped(ByteFeed feed) throws IOException {
        assertEquals("hello", body(feed, "5;q=\"a; \\\"b\\\"\"\r\nhello\r\n0\r\n\r\n").decode());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void whitespaceAroundExtensionSeparatorsIsAllowed(ByteFeed feed) throws IOException {
        assertEquals("hi", body(feed, "2 ; a = b ;c\r\nhi\r\n0\r\n\r\n").decode());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void trailersAreParsedAfterTheLastChunk(ByteFeed feed) throws IOException {
        Body b = body(feed, "2\r\nhi\r\n0\r\nx-checksum:  abc \r\nX-Other: 1\r\nX-Other: 2\r\n\r\n");

        b.decode();

        RequestHeaders trailers = b.stream().trailers();
        assertAll(
                () -> assertEquals(List.of("abc"), trailers.get("X-checksum")),
                () -> assertEquals(List.of("1", "2"), trailers.get("X-other")),
                () -> assertEquals(2, trailers.size()));
    }

    @Test
    void trailersAreReadOnly() throws IOException {
        Body b = body(ByteFeed.WHOLE, "0\r\nX-A: 1\r\n\r\n");
        b.decode();

        assertThrows(UnsupportedOperationException.class, () -> b.stream().trailers().add("X-B", "2"));
    }

    @Test
    void trailersAreEmptyWhenNoneWereSent() throws IOException {
        Body b = body(ByteFeed.WHOLE, "2\r\nhi\r\n0\r\n\r\n");

        b.decode();

        assertTrue(b.stream().trailers().isEmpty());
    }

    @Test
    void trailersAreNullBeforeTheBodyIsComplete() throws IOException {
        Body b = body(ByteFeed.WHOLE, "2\r\nhi\r\n0\r\nX-A: 1\r\n\r\n");

        b.stream().read();

        assertNull(b.stream().trailers());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void bytesAfterTheBodyAreLeftForTheNextRequest(ByteFeed feed) throws IOException {
        Body b = body(feed, "2\r\nhi\r\n0\r\nX-T: v\r\n\r\nGET /next HTTP/1.1\r\n");

        b.decode();

        assertEquals("GET /next HTTP/1.1\r\n", b.rest());
    }

    @Test
    void readAfterTheEndReturnsMinusOne() throws IOException {
        Body b = body(ByteFeed.WHOLE, "2\r\nhi\r\n0\r\n\r\n");
        b.decode();

        assertEquals(-1, b.stream().read());
    }

    @Test
    void readNeverReturnsBytesOfTheNextChunkLine() throws IOException {
        Body b = body(ByteFeed.WHOLE, "3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n");
        byte[] buf = new byte[100];

        int n = b.stream().read(buf, 0, buf.length);

        assertEquals("abc", new String(buf, 0, n, StandardCharsets.US_ASCII));
    }

    @Test
    void availableCountsOnlyBufferedBytesOfTheCurrentChunk() throws IOException {
        Body b = body(ByteFeed.WHOLE, "5\r\nhello\r\n0\r\n\r\n");
        b.stream().read();

        assertEquals(4, b.stream().available());
    }

    @Test
    void firstReadListenerRunsOnceBeforeTheFirstRead() throws IOException {
        AtomicInteger calls = new AtomicInteger();
        ConnectionInput in = ByteFeed.WHOLE.input("2\r\nhi\r\n0\r\n\r\n", CONFIG);
        ChunkedInputStream s = new ChunkedInputStream(in, CONFIG, calls::incrementAndGet);
        assertEquals(0, calls.get());

        s.readAllBytes();

        assertEquals(1, calls.get());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void bodyExactlyAtTheSizeLimitIsAccepted(ByteFeed feed) throws IOException {
        assertEquals(MAX_BODY, body(feed, chunkedOf((int) MAX_BODY, 30)).decode().length());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void chunkLineExactlyAtTheLimitIsAccepted(ByteFeed feed) throws IOException {
        String line = "2;e=" + "v".repeat(MAX_CHUNK_LINE - 4);
        assertEquals(MAX_CHUNK_LINE, line.length());

        assertEquals("hi", body(feed, line + "\r\nhi\r\n0\r\n\r\n").decode());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void sixteenHexDigitsAreAccepted(ByteFeed feed) throws IOException {
        // The contract rejects more than 16 hex digits; 16 (with leading zeros) is a valid size.
        assertEquals("hi", body(feed, "0000000000000002\r\nhi\r\n0\r\n\r\n").decode());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void trailerSectionExactlyAtTheLimitIsAccepted(ByteFeed feed) throws IOException {
        // Measured like the header section: field lines with their CRLF plus the final CRLF.
        String line = "X-T: " + "t".repeat(MAX_HEADER_SIZE - 2 - "X-T: \r\n".length()) + "\r\n";
        assertEquals(MAX_HEADER_SIZE, line.length() + 2);

        Body b = body(feed, "0\r\n" + line + "\r\n");
        b.decode();

        assertEquals(1, b.stream().trailers().size());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void trailerCountExactlyAtTheLimitIsAccepted(ByteFeed feed) throws IOException {
        Body b = body(feed, "0\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n");
        b.decode();

        assertEquals(MAX_HEADER_COUNT, b.stream().trailers().size());
    }

    // ---------------------------------------------------------------- errors

    /** One malformed chunked body and the failure it must give. */
    record Invalid(String name, String wire, int status, ProtocolError kind) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Invalid> invalidBodies() {
        return List.of(
                new Invalid("non-hex size", "g\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("empty size", "\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("size with a sign", "+2\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("size with 0x prefix", "0x2\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("junk after the size", "2x\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("17 hex digits", "00000000000000002\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("16 hex digits overflowing a long", "8000000000000000\r\nhi\r\n0\r\n\r\n",
                        400, ProtocolError.BAD_CHUNK),
                new Invalid("16 hex digits of all ones", "ffffffffffffffff\r\nhi\r\n0\r\n\r\n",
                        400, ProtocolError.BAD_CHUNK),
                new Invalid("bare LF after the size", "2\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("bare CR in the chunk line", "2\r;a\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("data not followed by CRLF", "2\r\nhiX\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("data followed by bare LF", "2\r\nhi\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("data longer than its size", "2\r\nhello\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("whitespace after the size", "2 \r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("tab after the size", "2\t\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("whitespace after the last chunk's size", "2\r\nhi\r\n0 \r\n\r\n", 400,
                        ProtocolError.BAD_CHUNK),
                new Invalid("whitespace before the size", " 2\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("whitespace after an extension name", "2;a \r\nhi\r\n0\r\n\r\n", 400,
                        ProtocolError.BAD_CHUNK),
                new Invalid("whitespace after an extension value", "2;a=b \r\nhi\r\n0\r\n\r\n", 400,
                        ProtocolError.BAD_CHUNK),
                new Invalid("whitespace after a quoted extension value", "2;a=\"b\" \r\nhi\r\n0\r\n\r\n", 400,
                        ProtocolError.BAD_CHUNK),
                new Invalid("whitespace inside the size", "1 0\r\n" + "x".repeat(16) + "\r\n0\r\n\r\n", 400,
                        ProtocolError.BAD_CHUNK),
                new Invalid("extension without name", "2;=v\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("extension with empty value", "2;a=\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("unterminated quoted extension", "2;a=\"v\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("control byte in quoted extension", "2;a=\"\u0001\"\r\nhi\r\n0\r\n\r\n",
                        400, ProtocolError.BAD_CHUNK),
                new Invalid("chunk line one byte over the limit",
                        "2;e=" + "v".repeat(MAX_CHUNK_LINE - 3) + "\r\nhi\r\n0\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("chunk line without end", "2;e=" + "v".repeat(10 * MAX_CHUNK_LINE), 400, ProtocolError.BAD_CHUNK),
                new Invalid("body one byte over the size limit", chunkedOf((int) MAX_BODY + 1, 30),
                        413, ProtocolError.BODY_TOO_LARGE),
                new Invalid("single chunk over the size limit", "ffff\r\n", 413, ProtocolError.BODY_TOO_LARGE),
                new Invalid("trailer section far over the limit",
                        "0\r\nX-A: " + "a".repeat(150) + "\r\nX-B: " + "b".repeat(150) + "\r\n\r\n",
                        431, ProtocolError.HEADERS_TOO_LARGE),
                new Invalid("one trailer line longer than the limit", "0\r\nX-A: " + "a".repeat(3 * MAX_HEADER_SIZE) + "\r\n\r\n",
                        431, ProtocolError.HEADERS_TOO_LARGE),
                new Invalid("one trailer more than the count limit", "0\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n",
                        431, ProtocolError.HEADERS_TOO_LARGE),
                new Invalid("obs-fold in a trailer", "0\r\nX-A: a\r\n b\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("space before colon in a trailer", "0\r\nX-A : a\r\n\r\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("bare LF ending the trailer section", "0\r\nX-A: a\r\n\n", 400, ProtocolError.BAD_CHUNK),
                new Invalid("end of stream inside chunk data", "5\r\nhel", 400, ProtocolError.UNEXPECTED_EOF),
                new Invalid("end of stream before the last chunk", "2\r\nhi\r\n", 400, ProtocolError.UNEXPECTED_EOF),
                new Invalid("end of stream inside the trailers", "0\r\nX-A: a\r\n", 400, ProtocolError.UNEXPECTED_EOF));
    }

    static Stream<Arguments> invalidBodiesByFeed() {
        return invalidBodies().stream().flatMap(i -> Stream.of(ByteFeed.values()).map(f -> Arguments.of(i, f)));
    }

    @ParameterizedTest(name = "{0} ({1})")
    @MethodSource("invalidBodiesByFeed")
    void invalidBodyFailsWithItsStatusAndKind(Invalid c, ByteFeed feed) {
        assertFailure(failure(feed, c.wire()), c.status(), c.kind());
    }

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void trailerSectionOneByteOverTheLimitIsRejected(ByteFeed feed) {
        // Measured like the header section (RequestParser): field lines with their CRLF plus the final CRLF.
        String line = "X-T: " + "t".repeat(MAX_HEADER_SIZE - 2 - "X-T: \r\n".length() + 1) + "\r\n";
        assertEquals(MAX_HEADER_SIZE + 1, line.length() + 2);

        assertFailure(failure(feed, "0\r\n" + line + "\r\n"), 431, ProtocolError.HEADERS_TOO_LARGE);
    }

    @Test
    void sizeLimitFailsBeforeTheOversizedChunkIsRead() throws IOException {
        Body b = body(ByteFeed.WHOLE, "32\r\n" + "a".repeat(50) + "\r\n33\r\n" + "b".repeat(51) + "\r\n0\r\n\r\n");
        byte[] buf = new byte[50];
        assertEquals(50, b.stream().readNBytes(buf, 0, 50));

        BodyException e = assertThrows(BodyException.class, () -> b.stream().read());

        assertFailure(e, 413, ProtocolError.BODY_TOO_LARGE);
    }

    @Test
    void failureRepeatsOnEveryLaterRead() {
        Body b = body(ByteFeed.WHOLE, "zz\r\n");
        BodyException first = assertThrows(BodyException.class, () -> b.stream().read());

        BodyException second = assertThrows(BodyException.class, () -> b.stream().read());

        assertSame(first, second);
        assertSame(first, b.stream().failure());
    }

    @Test
    void readAfterCloseThrows() {
        Body b = body(ByteFeed.WHOLE, "2\r\nhi\r\n0\r\n\r\n");
        b.stream().close();

        assertThrows(IOException.class, () -> b.stream().read());
    }

    // ---------------------------------------------------------------- drain

    @ParameterizedTest
    @EnumSource(ByteFeed.class)
    void drainConsumesARestSmallerThanMaxAndReportsTheConnectionReusable(ByteFeed feed) throws IOException {
        Body b = body(feed, "5\r\nhello\r\n5\r\nworld\r\n0\r\nX-T: v\r\n\r\nGET / HTTP/1.1\r\n");
        b.stream().read();

        assertTrue(b.stream().drain(100, FAR_DEADLINE));
        assertTrue(b.stream().isComplete());
        assertEquals("GET / HTTP/1.1\r\n", b.rest());
    }

    @Test
    void drainOfACompleteBodySucceedsWithoutReading() throws IOException {
        Body b = body(ByteFeed.WHOLE, "0\r\n\r\nNEXT");
        b.decode();

        assertTrue(b.stream().drain(0, FAR_DEADLINE));
        assertEquals("NEXT", b.rest());
    }

    @Test
    void drainWorksAfterTheHandlerClosedTheStream() throws IOException {
        Body b = body(ByteFeed.WHOLE, "2\r\nhi\r\n0\r\n\r\n");
        b.stream().close();

        assertTrue(b.stream().drain(100, FAR_DEADLINE));
        assertTrue(b.stream().isComplete());
    }

    @Test
    void drainGivesUpOnARestFarLargerThanMax() {
        ServerConfig big = CONFIG.toBuilder().maxRequestBodySize(1 << 20).build();
        Body b = body(ByteFeed.WHOLE, chunkedOf(100_000, 1000), big);

        assertFalse(b.stream().drain(1000, FAR_DEADLINE));
        assertFalse(b.stream().isComplete());
    }

    @Test
    void drainOfARestOfExactlyMaxBytesSucceeds() {
        ServerConfig big = CONFIG.toBuilder().maxRequestBodySize(1 << 20).build();
        Body b = body(ByteFeed.WHOLE, chunkedOf(5000, 5000), big);

        assertTrue(b.stream().drain(5000, FAR_DEADLINE));
    }

    @Test
    void drainOfARestOneByteOverMaxFails() {
        // RequestBody#drain: "Reads and discards the rest of the body, at most max bytes".
        ServerConfig big = CONFIG.toBuilder().maxRequestBodySize(1 << 20).build();
        Body b = body(ByteFeed.WHOLE, chunkedOf(5000, 5000), big);

        assertFalse(b.stream().drain(4999, FAR_DEADLINE));
    }

    @Test
    void drainOfAMalformedBodyReportsTheConnectionUnusable() {
        Body b = body(ByteFeed.WHOLE, "2\r\nhiX\r\n0\r\n\r\n");

        assertFalse(b.stream().drain(100, FAR_DEADLINE));
        assertFailure(b.stream().failure(), 400, ProtocolError.BAD_CHUNK);
    }

    @Test
    void drainOfABodyOverTheSizeLimitReportsTheConnectionUnusable() {
        Body b = body(ByteFeed.WHOLE, chunkedOf((int) MAX_BODY + 1, 30));

        assertFalse(b.stream().drain(1000, FAR_DEADLINE));
    }

    @Test
    void drainOfATruncatedBodyReportsTheConnectionUnusable() {
        Body b = body(ByteFeed.WHOLE, "5\r\nhe");

        assertFalse(b.stream().drain(100, FAR_DEADLINE));
    }
}
