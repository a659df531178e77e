package dev.weft.httpserver.forms;

/**
 * Limits for {@code multipart/form-data} bodies; past any of them reading fails with a {@link FormException} of
 * status {@code 413}.
 *
 * @param maxParts          most parts (default 128)
 * @param maxPartHeaderSize most bytes of one part's header section, blank line included (default 8 KiB)
 * @param maxPartSize       most bytes of one part's content (default 16 MiB)
 * @param maxTotalSize      most bytes of the whole body, preamble and delimiters included (default 64 MiB,
 *                          the engine's default {@code maxRequestBodySize})
 */
public record MultipartLimits(int maxParts, int maxPartHeaderSize, long maxPartSize, long maxTotalSize) {

    private static final MultipartLimits DEFAULTS = new Builder().build();

    /** Validates every limit; use {@link #builder()} rather than this constructor. */
    public MultipartLimits {
        if (maxParts < 1 || maxPartHeaderSize < 64 || maxPartSize < 0 || maxTotalSize < 1) {
            throw new IllegalArgumentException("bad multipart limits: parts " + maxParts + ", header "
                    + maxPartHeaderSize + " (at least 64), part " + maxPartSize + ", total " + maxTotalSize);
        }
    }

    /** The documented defaults. */
    public static MultipartLimits defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builder of {@link MultipartLimits}. */
    public static final class Builder {
        private int maxParts = 128;
        private int maxPartHeaderSize = 8 * 1024;
        private long maxPartSize = 16L * 1024 * 1024;
        private long maxTotalSize = 64L * 1024 * 1024;

        private Builder() {
        }

        /** Most parts. */
        public Builder maxParts(int n) {
            this.maxParts = n;
            return this;
        }

        /** Most bytes of one part's header section. */
        public Builder maxPartHeaderSize(int n) {
            this.maxPartHeaderSize = n;
            return this;
        }

        /** Most bytes of one part's content. */
        public Builder maxPartSize(long n) {
            this.maxPartSize = n;
            return this;
        }

        /** Most bytes of the whole body. */
        public Builder maxTotalSize(long n) {
            this.maxTotalSize = n;
            return this;
        }

        /** The validated limits. */
        public MultipartLimits build() {
            return new MultipartLimits(maxParts, maxPartHeaderSize, maxPartSize, maxTotalSize);
        }
    }
}
