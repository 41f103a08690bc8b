package dev.levee.timeout;

import dev.levee.core.ContextScope;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
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
 * <p><b>Reserve on the way out</b> (seeds 000 and 002). The caller keeps time to handle the answer:
 * what it sends downstream is
 * <pre>
 *   downstream = max(0, min(remaining - reserve, remaining × (1 - reserveRatio)))
 * </pre>
 * with {@code reserve} 100 ms and {@code reserveRatio} 0.1 by default, i.e. seed 000's
 * {@code min(remaining − 0.1 s, remaining × 0.9)}: the caller keeps the larger of 100 ms and 10 % —
 * at least 100 ms to handle the answer on short deadlines (150 ms left sends 50 ms; 100 ms or less
 * sends zero), a reserve that grows with long ones (5 s left sends 4.5 s).
 * {@link #encode(Deadline)}, {@link #encodeCurrent()} and {@link #downstream(Deadline)} apply it;
 * {@link #encodeNanos(long)} encodes a value as given.
 *
 * <p><b>Minimum to accept work</b> (seed 002). Work that arrives with less than
 * {@code minimumRemaining} (100 ms by default) left is not worth starting: by the time it is done the
 * caller has given up. {@link #acceptIncoming(CharSequence)} refuses it with a
 * {@link DeadlineExceededException} (counted in {@link #refusedCount()});
 * {@link #attachIncoming(CharSequence)} never refuses.
 *
 * <p><b>Formats</b> ({@link DeadlineHeaderFormat}): gRPC's {@code grpc-timeout} ({@code 250m}) or plain
 * milliseconds ({@code 250}). Encoding uses the configured one and rounds down; decoding accepts both.
 * A value is relative, so clock skew between hosts does not matter; network transit time is not
 * subtracted (keep a {@code reserve} in the {@link Timeout} for it).
 *
 * <p>Immutable configuration; thread-safe; the counters are {@link LongAdder}s.
 */
public final class DeadlinePropagation {
    private static final String POLICY = "DeadlinePropagation";
    /** Default fixed part of the reserve kept on the way out: 100 ms (seed 000). */
    public static final Duration DEFAULT_RESERVE = Duration.ofMillis(100);
    /** Default proportional part of the reserve: 0.1, i.e. send at most 90 % of what remains (seeds 000, 002). */
    public static final double DEFAULT_RESERVE_RATIO = 0.1;
    /** Default least time left for which incoming work is accepted: 100 ms (seed 002). */
    public static final Duration DEFAULT_MINIMUM_REMAINING = Duration.ofMillis(100);
    /** Default longest incoming timeout honoured. */
    public static final Duration DEFAULT_LOCAL_MAXIMUM = Duration.ofSeconds(30);
    /** Default plausibility bound on incoming values. */
    public static final Duration DEFAULT_ABSURD_ABOVE = Duration.ofDays(1);

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
    private final long reserveNanos;
    private final double reserveRatio;
    private final long minimumRemainingNanos;
    private final LongAdder refused = new LongAdder();
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
        this.reserveNanos = Deadline.saturatedNanos(b.reserve);
        this.reserveRatio = b.reserveRatio;
        this.minimumRemainingNanos = Deadline.saturatedNanos(b.minimumRemaining);
    }

    /**
     * Starts a builder: gRPC format, local maximum 30 s, absurd above 1 day, reserve 100 ms or 10 %
     * (whichever keeps more), minimum remaining 100 ms, system ticker.
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

    /** @return the fixed part of the reserve kept on the way out */
    public Duration reserve() {
        return Duration.ofNanos(reserveNanos);
    }

    /** @return the proportional part of the reserve, a fraction in [0, 1) */
    public double reserveRatio() {
        return reserveRatio;
    }

    /** @return the least time left for which {@link #acceptIncoming(CharSequence)} accepts work */
    public Duration minimumRemaining() {
        return Duration.ofNanos(minimumRemainingNanos);
    }

    /**
     * What a caller with {@code remainingNanos} left sends downstream:
     * {@code max(0, min(remaining - reserve, remaining × (1 - reserveRatio)))}.
     *
     * @param remainingNanos the caller's time left
     * @return the downstream budget in nanoseconds, never negative
     */
    public long downstreamNanos(long remainingNanos) {
        if (remainingNanos <= 0) {
            return 0L;
        }
        long fixed = Nanos.subtract(remainingNanos, reserveNanos);
        long proportional = remainingNanos - (long) Math.ceil(remainingNanos * reserveRatio);
        return Math.max(0L, Math.min(fixed, proportional));
    }

    /**
     * The deadline to give a downstream call made under {@code deadline}: the reserve taken off.
     *
     * @param deadline the caller's deadline, or null
     * @return the downstream deadline on the same ticker, or null for a null deadline
     */
    public @Nullable Deadline downstream(@Nullable Deadline deadline) {
        if (deadline == null) {
            return null;
        }
        long now = deadline.ticker().read();
        return Deadline.at(Nanos.add(now, downstreamNanos(deadline.remainingNanos(now))), deadline.ticker());
    }

    /**
     * Encodes what a call under {@code deadline} sends downstream: its time left minus the reserve
     * ({@link #downstreamNanos(long)}).
     *
     * @param deadline the deadline, or null
     * @return the header value (an expired deadline encodes as zero), or null for a null deadline
     */
    public @Nullable String encode(@Nullable Deadline deadline) {
        if (deadline == null) {
            return null;
        }
        return encodeNanos(downstreamNanos(deadline.remainingNanos()));
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
     * Encodes the {@linkplain Deadline#currentOrNull() current deadline}, minus the reserve.
     *
     * @return the header value, or null when no deadline is current (send no header)
     */
    public @Nullable String encodeCurrent() {
        return encode(Deadline.currentOrNull());
    }

    /**
     * Decodes an incoming value into the timeout to honour. Never throws.
     *
     * @param headerValue the header's value, or null if the header is absent
     * @return {@code min(decoded, localMaximum)} for a valid value, {@code localMaximum} otherwise
     */
    public long decodeNanos(@Nullable CharSequence headerValue) {
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
    public Deadline incoming(@Nullable CharSequence headerValue) {
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
    public ContextScope attachIncoming(@Nullable CharSequence headerValue) {
        return incoming(headerValue).attach();
    }

    /**
     * Attaches the incoming deadline if it leaves at least {@code minimumRemaining} (seed 002's
     * 100 ms rule); otherwise refuses the work before it starts. Use it at the edge of a service: a
     * request that cannot finish in time is not worth the work.
     *
     * @param headerValue the header's value, or null if absent (then {@code localMaximum} applies)
     * @return the scope; close it when the request is done
     * @throws DeadlineExceededException if less than {@code minimumRemaining} is left
     */
    public ContextScope acceptIncoming(@Nullable CharSequence headerValue) {
        Deadline incoming = incoming(headerValue);
        Deadline effective = incoming.earlierOf(Deadline.currentOrNull());
        long remaining = effective.remainingNanos();
        if (remaining < minimumRemainingNanos) {
            refused.increment();
            throw new DeadlineExceededException(POLICY, "DeadlinePropagation: only " + Math.max(0L, remaining)
                    + " ns remain of the incoming deadline, less than the minimum of " + minimumRemainingNanos
                    + " ns to accept work; not started", 0L);
        }
        return incoming.attach();
    }

    /** @return incoming requests refused by {@link #acceptIncoming(CharSequence)} for too little time left */
    public long refusedCount() {
        return refused.sum();
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
                + ", absurdAbove=" + absurdAbove + ", reserve=" + reserve() + " or " + reserveRatio
                + ", minimumRemaining=" + minimumRemaining() + "]";
    }

    /** Builds a {@link DeadlinePropagation}. Not thread-safe; {@link #build()} validates. */
    public static final class Builder {
        private DeadlineHeaderFormat format = DeadlineHeaderFormat.GRPC;
        private @Nullable String headerName;
        private Duration localMaximum = DEFAULT_LOCAL_MAXIMUM;
        private Duration absurdAbove = DEFAULT_ABSURD_ABOVE;
        private Ticker ticker = Ticker.system();
        private Duration reserve = DEFAULT_RESERVE;
        private double reserveRatio = DEFAULT_RESERVE_RATIO;
        private Duration minimumRemaining = DEFAULT_MINIMUM_REMAINING;

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
         * The fixed part of the reserve kept on the way out (default 100 ms, seed 000; &ge; 0 and
         * &le; localMaximum). Zero with a zero ratio sends the remaining time unchanged.
         *
         * @param reserve the reserve
         * @return this builder
         */
        public Builder reserve(Duration reserve) {
            this.reserve = reserve;
            return this;
        }

        /**
         * The proportional part of the reserve (default 0.1, seeds 000 and 002: send at most 90 %); a
         * fraction in [0, 1).
         *
         * @param reserveRatio the share of the remaining time kept locally
         * @return this builder
         */
        public Builder reserveRatio(double reserveRatio) {
            this.reserveRatio = reserveRatio;
            return this;
        }

        /**
         * The least time left for which {@link DeadlinePropagation#acceptIncoming(CharSequence)} accepts
         * work (default 100 ms, seed 002; &ge; 0 and &le; localMaximum).
         *
         * @param minimumRemaining the minimum
         * @return this builder
         */
        public Builder minimumRemaining(Duration minimumRemaining) {
            this.minimumRemaining = minimumRemaining;
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
            Validate.nonNegative(POLICY, "reserve", reserve);
            Validate.check(reserve.compareTo(localMaximum) <= 0, POLICY, "reserve",
                    "<= localMaximum (" + localMaximum + ")", reserve);
            Validate.check(reserveRatio <= 1.0 || Double.isNaN(reserveRatio), POLICY, "reserveRatio",
                    "a fraction in [0, 1) (" + reserveRatio + " looks like a percent: write "
                    + reserveRatio / 100 + ")", reserveRatio);
            Validate.check(reserveRatio >= 0.0 && reserveRatio < 1.0, POLICY, "reserveRatio", "in [0, 1)",
                    reserveRatio);
            Validate.nonNegative(POLICY, "minimumRemaining", minimumRemaining);
            Validate.check(minimumRemaining.compareTo(localMaximum) <= 0, POLICY, "minimumRemaining",
                    "<= localMaximum (" + localMaximum + ")", minimumRemaining);
            return new DeadlinePropagation(this);
        }
    }
}
