package dev.levee.timeout;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.Ticker;
import dev.levee.core.Validate;
import dev.levee.timeout.internal.HeaderCodec;
import dev.levee.core.internal.Nanos;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import org.jspecify.annotations.Nullable;

/**
 * Carries a deadline across service calls, as gRPC does: the caller writes the time it has left into
 * a request header; the callee turns it back into a {@link Deadline}, so the whole call tree stops
 * when the original caller gives up.
 *
 * <pre>{@code
 * // client side: send what remains of the current deadline
 * String value = propagation.encodeCurrent();          // null when no deadline is current
 * if (value != null) request.header(propagation.headerName(), value);
 *
 * // server side: run the handler under the incoming deadline, never longer than localMaximum
 * try (ContextScope scope = propagation.attachIncoming(request.header(propagation.headerName()))) {
 *     handle(request);
 * }
 * }</pre>
 *
 * <p><b>Trust.</b> An incoming value is untrusted input. It can only <em>shorten</em> the local limit:
 * <pre>
 *   incoming timeout = min(decoded, localMaximum)      for a valid value
 *   incoming timeout = localMaximum                    for a missing or ignored value
 * </pre>
 * A value is ignored, counted by reason ({@link Ignored}) and never throws into the request when it
 * is malformed (garbage, a fraction, inner spaces, more than 32 characters), negative, or absurd
 * (overflowing, a gRPC value of more than 8 digits, or longer than {@code absurdAbove}, default one
 * day: no real caller waits that long, so such a value is a bug or an attack). Parsing allocates
 * nothing.
 *
 * <p><b>Formats</b> ({@link DeadlineHeaderFormat}): gRPC's {@code grpc-timeout} ({@code 250m}) or plain
 * milliseconds ({@code 250}). Encoding uses the configured one and rounds down; decoding accepts both.
 * A value is relative, so clock skew between hosts does not matter; network transit time is not
 * subtracted (keep a {@code reserve} in the {@link Timeout} for it).
 *
 * <p>Immutable configuration; thread-safe; the counters are {@link LongAdder}s.
 */
@SuppressWarnings("NullAway") // NullAway debt (issue 11): annotate this class's nullable fields and parameters, then remove
public final class DeadlinePropagation {
    private static final String POLICY = "DeadlinePropagation";

    /** Why an incoming value was ignored. */
    public enum Ignored {
        /** Not a value of either format. */
        MALFORMED,
        /** A negative number. */
        NEGATIVE,
        /** Overflowing, more than 8 gRPC digits, or longer than {@code absurdAbove}. */
        ABSURD
    }

    private final DeadlineHeaderFormat format;
    private final String headerName;
    private final Duration localMaximum;
    private final long localMaximumNanos;
    private final Duration absurdAbove;
    private final long absurdAboveNanos;
    private final Ticker ticker;
    private final LongAdder[] ignored = {new LongAdder(), new LongAdder(), new LongAdder()};
    private final LongAdder accepted = new LongAdder();
    private final LongAdder clamped = new LongAdder();
    private final LongAdder missing = new LongAdder();

    private DeadlinePropagation(Builder b) {
        this.format = b.format;
        this.headerName = b.headerName != null ? b.headerName : b.format.defaultHeaderName();
        this.localMaximum = b.localMaximum;
        this.localMaximumNanos = Deadline.saturatedNanos(b.localMaximum);
        this.absurdAbove = b.absurdAbove;
        this.absurdAboveNanos = Deadline.saturatedNanos(b.absurdAbove);
        this.ticker = b.ticker;
    }

    /**
     * Starts a builder: gRPC format, local maximum 30 s, absurd above 1 day, system ticker.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the header the deadline travels in */
    public String headerName() {
        return headerName;
    }

    /** @return the encoding format */
    public DeadlineHeaderFormat format() {
        return format;
    }

    /** @return the longest incoming timeout honoured */
    public Duration localMaximum() {
        return localMaximum;
    }

    /** @return incoming values longer than this are ignored as absurd */
    public Duration absurdAbove() {
        return absurdAbove;
    }

    /**
     * Encodes the time left on {@code deadline}.
     *
     * @param deadline the deadline, or null
     * @return the header value (an expired deadline encodes as zero), or null for a null deadline
     */
    public String encode(Deadline deadline) {
        if (deadline == null) {
            return null;
        }
        return encodeNanos(deadline.remainingNanos());
    }

    /**
     * Encodes a remaining time.
     *
     * @param remainingNanos time left; zero or negative encodes as zero
     * @return the header value
     */
    public String encodeNanos(long remainingNanos) {
        return format == DeadlineHeaderFormat.GRPC
                ? HeaderCodec.formatGrpc(remainingNanos)
                : HeaderCodec.formatMillis(remainingNanos);
    }

    /**
     * Encodes the {@linkplain Deadline#currentOrNull() current deadline}.
     *
     * @return the header value, or null when no deadline is current (send no header)
     */
    public String encodeCurrent() {
        return encode(Deadline.currentOrNull());
    }

    /**
     * Decodes an incoming value into the timeout to honour. Never throws.
     *
     * @param headerValue the header's value, or null if the header is absent
     * @return {@code min(decoded, localMaximum)} for a valid value, {@code localMaximum} otherwise
     */
    public long decodeNanos(CharSequence headerValue) {
        if (headerValue == null) {
            missing.increment();
            return localMaximumNanos;
        }
        long parsed = HeaderCodec.parse(headerValue);
        if (parsed == HeaderCodec.MALFORMED) {
            ignored[Ignored.MALFORMED.ordinal()].increment();
            return localMaximumNanos;
        }
        if (parsed == HeaderCodec.NEGATIVE) {
            ignored[Ignored.NEGATIVE.ordinal()].increment();
            return localMaximumNanos;
        }
        if (parsed == HeaderCodec.OVERFLOW || parsed > absurdAboveNanos) {
            ignored[Ignored.ABSURD.ordinal()].increment();
            return localMaximumNanos;
        }
        accepted.increment();
        if (parsed > localMaximumNanos) {
            clamped.increment();
            return localMaximumNanos;
        }
        return parsed;
    }

    /**
     * The deadline an incoming request runs under: now plus {@link #decodeNanos(CharSequence)}.
     * Never throws.
     *
     * @param headerValue the header's value, or null if absent
     * @return the deadline on this propagation's ticker
     */
    public Deadline incoming(CharSequence headerValue) {
        long timeout = decodeNanos(headerValue);
        return Deadline.at(Nanos.add(ticker.read(), timeout), ticker);
    }

    /**
     * Attaches {@link #incoming(CharSequence)} as the current deadline (the earlier of it and any
     * deadline already current). Never throws on any header value.
     *
     * @param headerValue the header's value, or null if absent
     * @return the scope; close it when the request is done
     */
    public ContextScope attachIncoming(CharSequence headerValue) {
        return incoming(headerValue).attach();
    }

    /** @return incoming values ignored, all reasons */
    public long ignoredCount() {
        return ignored[0].sum() + ignored[1].sum() + ignored[2].sum();
    }

    /**
     * Incoming values ignored for one reason.
     *
     * @param reason the reason
     * @return the count
     */
    public long ignoredCount(Ignored reason) {
        return ignored[reason.ordinal()].sum();
    }

    /** @return valid incoming values (including clamped ones) */
    public long acceptedCount() {
        return accepted.sum();
    }

    /** @return valid incoming values longer than the local maximum, cut down to it */
    public long clampedCount() {
        return clamped.sum();
    }

    /** @return requests without the header */
    public long missingCount() {
        return missing.sum();
    }

    @Override
    public String toString() {
        return "DeadlinePropagation[" + headerName + " (" + format + "), localMaximum=" + localMaximum
                + ", absurdAbove=" + absurdAbove + "]";
    }

    /** Builds a {@link DeadlinePropagation}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private DeadlineHeaderFormat format = DeadlineHeaderFormat.GRPC;
        private @Nullable String headerName;
        private Duration localMaximum = Duration.ofSeconds(30);
        private Duration absurdAbove = Duration.ofDays(1);
        private Ticker ticker = Ticker.system();

        private Builder() {}

        /**
         * The encoding (default {@link DeadlineHeaderFormat#GRPC}).
         *
         * @param format the format
         * @return this builder
         */
        public Builder format(DeadlineHeaderFormat format) {
            this.format = format;
            return this;
        }

        /**
         * The header name (default: the format's, {@code grpc-timeout} or {@code levee-timeout-ms}).
         *
         * @param headerName a non-blank name
         * @return this builder
         */
        public Builder headerName(String headerName) {
            this.headerName = headerName;
            return this;
        }

        /**
         * The longest incoming timeout honoured, and the timeout of requests without a valid header
         * (default 30 s; &gt; 0 and &le; absurdAbove).
         *
         * @param localMaximum the maximum
         * @return this builder
         */
        public Builder localMaximum(Duration localMaximum) {
            this.localMaximum = localMaximum;
            return this;
        }

        /**
         * Incoming values longer than this are ignored as absurd (default 1 day; &ge; localMaximum).
         *
         * @param absurdAbove the plausibility bound
         * @return this builder
         */
        public Builder absurdAbove(Duration absurdAbove) {
            this.absurdAbove = absurdAbove;
            return this;
        }

        /**
         * The time source of incoming deadlines (default {@link Ticker#system()}).
         *
         * @param ticker the ticker
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the propagation
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public DeadlinePropagation build() {
            Validate.notNull(POLICY, "format", format);
            Validate.check(headerName == null || !headerName.isBlank(), POLICY, "headerName",
                    "a non-blank string", "'" + headerName + "'");
            Validate.positive(POLICY, "localMaximum", localMaximum);
            Validate.notNull(POLICY, "absurdAbove", absurdAbove);
            Validate.check(absurdAbove.compareTo(localMaximum) >= 0, POLICY, "absurdAbove",
                    ">= localMaximum (" + localMaximum + ")", absurdAbove);
            Validate.notNull(POLICY, "ticker", ticker);
            return new DeadlinePropagation(this);
        }
    }
}
