package dev.weft.httpserver.hpack;

/** Thrown when a header block cannot be decoded or exceeds a configured limit. */
public final class HpackException extends Exception {

    private static final long serialVersionUID = 1L;

    private final boolean connectionError;

    private HpackException(String message, boolean connectionError) {
        super(message);
        this.connectionError = connectionError;
    }

    /** A decoding error: the connection must be closed with COMPRESSION_ERROR. */
    public static HpackException compression(String message) {
        return new HpackException(message, true);
    }

    /**
     * The header list exceeded the maximum header list size. The block was fully processed, so the
     * decoding context is still in sync and only the stream needs rejecting.
     */
    public static HpackException headerListTooLarge(String message) {
        return new HpackException(message, false);
    }

    /** True for COMPRESSION_ERROR (connection error); false when only the header list was too large. */
    public boolean isConnectionError() {
        return connectionError;
    }
}
