package dev.weft.httpserver.forms;

/**
 * Limits for query strings and {@code application/x-www-form-urlencoded} bodies; past any of them parsing fails
 * with a {@link FormException} of status {@code 413}. Sizes count encoded bytes.
 *
 * @param maxFields    most name/value pairs (default 1,000)
 * @param maxTotalSize most bytes of the whole query or body (default 1 MiB)
 * @param maxNameSize  most bytes of one name (default 1 KiB)
 * @param maxValueSize most bytes of one value (default 256 KiB)
 */
public record FormLimits(int maxFields, long maxTotalSize, int maxNameSize, int maxValueSize) {

    private static final FormLimits DEFAULTS = new Builder().build();

    /** Validates every limit; use {@link #builder()} rather than this constructor. */
    public FormLimits {
        if (maxFields < 1 || maxTotalSize < 1 || maxNameSize < 1 || maxValueSize < 0) {
            throw new IllegalArgumentException("limits must be positive: " + maxFields + ", " + maxTotalSize + ", "
                    + maxNameSize + ", " + maxValueSize);
        }
    }

    /** The documented defaults. */
    public static FormLimits defaults() {
        return DEFAULTS;
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builder of {@link FormLimits}. */
    public static final class Builder {
        private int maxFields = 1_000;
        private long maxTotalSize = 1024 * 1024;
        private int maxNameSize = 1024;
        private int maxValueSize = 256 * 1024;

        private Builder() {
        }

        /** Most name/value pairs. */
        public Builder maxFields(int n) {
            this.maxFields = n;
            return this;
        }

        /** Most bytes of the whole query or body. */
        public Builder maxTotalSize(long n) {
            this.maxTotalSize = n;
            return this;
        }

        /** Most bytes of one encoded name. */
        public Builder maxNameSize(int n) {
            this.maxNameSize = n;
            return this;
        }

        /** Most bytes of one encoded value. */
        public Builder maxValueSize(int n) {
            this.maxValueSize = n;
            return this;
        }

        /** The validated limits. */
        public FormLimits build() {
            return new FormLimits(maxFields, maxTotalSize, maxNameSize, maxValueSize);
        }
    }
}
