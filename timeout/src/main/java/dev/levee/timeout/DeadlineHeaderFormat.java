package dev.levee.timeout;

/**
 * How {@link DeadlinePropagation} writes a deadline into a request header. Decoding accepts both
 * formats whatever the configured one (they are told apart by the last character).
 */
public enum DeadlineHeaderFormat {
    /**
     * gRPC's {@code grpc-timeout}: up to 8 digits and a unit ({@code H M S m u n}), e.g. {@code 250m};
     * the finest unit that fits is used, rounded down.
     */
    GRPC("grpc-timeout"),
    /** Whole milliseconds remaining, rounded down, e.g. {@code 250}, in header {@code levee-timeout-ms}. */
    MILLIS("levee-timeout-ms");

    private final String defaultHeaderName;

    DeadlineHeaderFormat(String defaultHeaderName) {
        this.defaultHeaderName = defaultHeaderName;
    }

    /** @return the header this format is sent in unless another name is configured */
    public String defaultHeaderName() {
        return defaultHeaderName;
    }
}
