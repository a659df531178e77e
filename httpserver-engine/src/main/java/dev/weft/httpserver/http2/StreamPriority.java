package dev.weft.httpserver.http2;

/**
 * The (deprecated, RFC 9113 §5.3.2) priority signal carried by PRIORITY frames and HEADERS frames with the
 * PRIORITY flag.
 *
 * @param exclusive    the E bit
 * @param dependency   the stream this one depends on (31 bits)
 * @param weight       the weight, 1..256 (the wire value plus one)
 */
public record StreamPriority(boolean exclusive, int dependency, int weight) {

    public StreamPriority {
        if (dependency < 0) {
            throw new IllegalArgumentException("dependency must be a 31-bit stream id: " + dependency);
        }
        if (weight < 1 || weight > 256) {
            throw new IllegalArgumentException("weight must be 1..256: " + weight);
        }
    }
}
