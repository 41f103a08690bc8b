package dev.levee.loadshed.signal;

import dev.levee.core.Deadline;
import dev.levee.core.Ticker;
import dev.levee.core.internal.Validate;
import dev.levee.core.internal.Nanos;
import dev.levee.loadshed.RequestPriority;
import dev.levee.loadshed.ShedDecision;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Carries load signals between services in HTTP headers (seed 002, {@code LoadSignalPropagator}):
 * {@value #DEADLINE} (the absolute deadline, epoch seconds), {@value #PRIORITY} (1–10) and
 * {@value #LOAD_LEVEL} (the caller's own load), so a callee can drop work its caller will not wait
 * for and shed low-priority work when its caller is overloaded.
 *
 * <pre>{@code
 * // caller: what is left of the deadline, minus a 10 % reserve for itself
 * headers.inject(Deadline.currentOrNull(), RequestPriority.current(), cpu.load(), request::header);
 *
 * // callee
 * LoadSignalHeaders.Incoming in = headers.extract(request::header);
 * ShedDecision d = headers.decide(in);                   // DEADLINE, UPSTREAM_LOAD or ADMITTED
 * if (d.isShed()) return ShedResponse.of(d);
 * try (ContextScope s = in.deadline().attach(); ContextScope p = RequestPriority.attach(in.priority())) { ... }
 * }</pre>
 *
 * <p><b>Inject.</b> {@code X-Deadline = wallNow + remaining × reserve} (seed 002: reserve 0.9, "reserve
 * 10 % for this service"), written as epoch seconds with millisecond precision, rounded down.
 * An absolute time is what the seed sends; it depends on the hosts' clocks agreeing (NTP keeps them
 * within milliseconds; a relative header such as gRPC's {@code grpc-timeout}, handled by the timeout
 * module's {@code DeadlinePropagation}, does not).
 *
 * <p><b>Extract: hostile input.</b> Every header is untrusted. A value is ignored, counted by header
 * and {@link Ignored reason}, and never throws when it is malformed (not a plain decimal, more than
 * 32 characters, more than 9 fraction digits, inner spaces, exponents, NaN), negative, or absurd (a
 * deadline more than {@code absurdAfter} (1 day) away in either direction: "5" sent as an epoch is
 * 1970; a priority outside 1–10; a load above 100). An ignored or missing deadline gives
 * {@code localMaximum} (30 s, seed 002's default); a valid one is capped at it, and at the deadline
 * already current on the thread: <em>an incoming header can shorten the local limit, never extend
 * it.</em> A deadline already in the past is valid (the caller gave up): {@link #decide} sheds it.
 *
 * <p><b>Rules</b> ({@link #decide}, seed 002's {@code should_shed_based_on_signals}): less than
 * {@code minRemaining} (100 ms) left → {@link ShedDecision#DEADLINE}; upstream load above
 * {@code upstreamLoadThreshold} (0.9) and priority below {@code lowPriorityBelow} (3) →
 * {@link ShedDecision#UPSTREAM_LOAD}.
 *
 * <p>Parsing allocates nothing but the {@link Incoming} result; thread-safe; counters are
 * {@link LongAdder}s.
 */
public final class LoadSignalHeaders {
    /** The absolute deadline header: epoch seconds, e.g. {@code 1732420000.125}. */
    public static final String DEADLINE = "X-Deadline";
    /** The priority header: an integer 1–10. */
    public static final String PRIORITY = "X-Priority";
    /** The caller's load header: a decimal, 0 idle, 1 at capacity. */
    public static final String LOAD_LEVEL = "X-Load-Level";

    /** Default share of the remaining time passed downstream (seed 002: {@code remaining * 0.9}). */
    public static final double DEFAULT_RESERVE = 0.9;
    /** Default deadline of a request without a valid header, seconds (seed 002: {@code + 30}). */
    public static final long DEFAULT_LOCAL_MAXIMUM_SECONDS = 30;
    /** Default least time left for a request to be worth starting, ms (seed 002: {@code remaining < 0.1}). */
    public static final long DEFAULT_MIN_REMAINING_MILLIS = 100;
    /** Default upstream load above which low priority is shed (seed 002: {@code > 0.9}). */
    public static final double DEFAULT_UPSTREAM_LOAD_THRESHOLD = 0.9;
    /** Default: priorities below this are low (seed 002: {@code priority < 3}). */
    public static final int DEFAULT_LOW_PRIORITY_BELOW = 3;
    /** Default bound beyond which a deadline is absurd, either direction: one day. */
    public static final Duration DEFAULT_ABSURD_AFTER = Duration.ofDays(1);
    /** Loads above this are absurd. */
    public static final double MAX_LOAD_LEVEL = 100.0;

    /** Why a header value was ignored. */
    public enum Ignored {
        /** Not a plain decimal (or integer, for the priority) of at most 32 characters. */
        MALFORMED,
        /** A negative number. */
        NEGATIVE,
        /** Out of any sensible range: a deadline a day away, a priority outside 1–10, a load above 100. */
        ABSURD
    }

    private static final long MALFORMED = -1;
    private static final long NEGATIVE = -2;
    private static final long OVERFLOW = -3;
    private static final int MAX_LENGTH = 32;

    private final double reserve;
    private final long localMaximumNanos;
    private final long minRemainingNanos;
    private final long absurdAfterNanos;
    private final double upstreamLoadThreshold;
    private final int lowPriorityBelow;
    private final Clock clock;
    private final Ticker ticker;
    private final LongAdder[][] ignored = new LongAdder[3][Ignored.values().length];
    private final LongAdder accepted = new LongAdder();

    private LoadSignalHeaders(Builder b) {
        this.reserve = b.reserve;
        this.localMaximumNanos = b.localMaximum.toNanos();
        this.minRemainingNanos = b.minRemaining.toNanos();
        this.absurdAfterNanos = b.absurdAfter.toNanos();
        this.upstreamLoadThreshold = b.upstreamLoadThreshold;
        this.lowPriorityBelow = b.lowPriorityBelow;
        this.clock = b.clock;
        this.ticker = b.ticker;
        for (LongAdder[] row : ignored) {
            for (int i = 0; i < row.length; i++) {
                row[i] = new LongAdder();
            }
        }
    }

    /** @return a builder with seed 002's defaults, the UTC system clock and the system ticker */
    public static Builder builder() {
        return new Builder();
    }

    /** @return headers with the defaults */
    public static LoadSignalHeaders defaults() {
        return builder().build();
    }

    // ------------------------------------------------------------------ inject

    /**
     * Writes the three headers for a downstream call.
     *
     * @param deadline the caller's deadline, or null to send none
     * @param priority the request's level (clamped into 1–10)
     * @param load this service's load, e.g. a CPU signal's reading (negative or NaN sends 0)
     * @param header receives each (name, value)
     */
    public void inject(@Nullable Deadline deadline, int priority, double load, BiConsumer<String, String> header) {
        Objects.requireNonNull(header, "header");
        if (deadline != null) {
            header.accept(DEADLINE, encodeDeadline(deadline));
        }
        header.accept(PRIORITY, Integer.toString(RequestPriority.clamp(priority)));
        double l = load >= 0.0 && load <= MAX_LOAD_LEVEL ? load : (load > MAX_LOAD_LEVEL ? MAX_LOAD_LEVEL : 0.0);
        header.accept(LOAD_LEVEL, String.format(Locale.ROOT, "%.3f", l));
    }

    /**
     * The {@value #DEADLINE} value for a downstream call: {@code wallNow + remaining × reserve} in
     * epoch seconds, millisecond precision (an expired deadline sends the current time).
     *
     * @param deadline the caller's deadline
     * @return e.g. {@code 1732420000.125}
     */
    public String encodeDeadline(Deadline deadline) {
        long remaining = Math.max(0L, deadline.remainingNanos());
        long passMillis = (long) (remaining * reserve) / 1_000_000L;
        long epochMillis = Nanos.add(clock.millis(), passMillis);
        long seconds = Math.floorDiv(epochMillis, 1000L);
        long millis = Math.floorMod(epochMillis, 1000L);
        StringBuilder sb = new StringBuilder(24).append(seconds).append('.');
        if (millis < 100) {
            sb.append('0');
        }
        if (millis < 10) {
            sb.append('0');
        }
        return sb.append(millis).toString();
    }

    // ------------------------------------------------------------------ extract

    /** What a request carried, after the hostile-input rules. */
    public static final class Incoming {
        private final Deadline deadline;
        private final boolean deadlineGiven;
        private final int priority;
        private final double upstreamLoad;

        Incoming(Deadline deadline, boolean deadlineGiven, int priority, double upstreamLoad) {
            this.deadline = deadline;
            this.deadlineGiven = deadlineGiven;
            this.priority = priority;
            this.upstreamLoad = upstreamLoad;
        }

        /** @return the deadline to run under: never later than the local maximum or the current deadline */
        public Deadline deadline() {
            return deadline;
        }

        /** @return whether a valid {@value #DEADLINE} header set it */
        public boolean deadlineGiven() {
            return deadlineGiven;
        }

        /** @return the priority, 1–10 ({@value RequestPriority#DEFAULT} when absent or ignored) */
        public int priority() {
            return priority;
        }

        /** @return the caller's load, 0 when absent or ignored */
        public double upstreamLoad() {
            return upstreamLoad;
        }

        @Override
        public String toString() {
            return "Incoming[deadline=" + deadline + ", given=" + deadlineGiven + ", priority=" + priority
                    + ", upstreamLoad=" + upstreamLoad + "]";
        }
    }

    /**
     * Reads the three headers. Never throws on any header value.
     *
     * @param header looks a header up by name; returns null when absent
     * @return the signals, with ignored values replaced by their defaults
     */
    public Incoming extract(Function<String, ? extends @Nullable CharSequence> header) {
        Objects.requireNonNull(header, "header");
        return extract(header.apply(DEADLINE), header.apply(PRIORITY), header.apply(LOAD_LEVEL));
    }

    /**
     * Reads the three header values. Never throws on any value.
     *
     * @param deadlineValue the {@value #DEADLINE} value, or null
     * @param priorityValue the {@value #PRIORITY} value, or null
     * @param loadValue the {@value #LOAD_LEVEL} value, or null
     * @return the signals
     */
    public Incoming extract(@Nullable CharSequence deadlineValue, @Nullable CharSequence priorityValue,
            @Nullable CharSequence loadValue) {
        long now = ticker.read();
        long local = Nanos.add(now, localMaximumNanos);
        Deadline current = Deadline.currentOrNull();
        if (current != null && current.ticker() == ticker && current.instantNanos() - local < 0) {
            local = current.instantNanos();
        } else if (current != null && current.ticker() != ticker) {
            long c = Nanos.add(now, current.remainingNanos());
            if (c - local < 0) {
                local = c;
            }
        }
        long instant = local;
        boolean given = false;
        if (deadlineValue != null) {
            long epochNanos = parseDecimal(deadlineValue, 9);
            if (epochNanos == MALFORMED) {
                ignore(0, Ignored.MALFORMED);
            } else if (epochNanos == NEGATIVE) {
                ignore(0, Ignored.NEGATIVE);
            } else if (epochNanos == OVERFLOW) {
                ignore(0, Ignored.ABSURD);
            } else {
                long remaining = Nanos.subtract(epochNanos, wallNanos());
                if (remaining > absurdAfterNanos || remaining < -absurdAfterNanos) {
                    ignore(0, Ignored.ABSURD);
                } else {
                    accepted.increment();
                    given = true;
                    long incoming = Nanos.add(now, remaining);
                    if (incoming - instant < 0) {
                        instant = incoming;
                    }
                }
            }
        }
        int priority = RequestPriority.DEFAULT;
        if (priorityValue != null) {
            long p = parseDecimal(priorityValue, 0);
            if (p == MALFORMED) {
                ignore(1, Ignored.MALFORMED);
            } else if (p == NEGATIVE) {
                ignore(1, Ignored.NEGATIVE);
            } else if (p == OVERFLOW || p < RequestPriority.MIN || p > RequestPriority.MAX) {
                ignore(1, Ignored.ABSURD);
            } else {
                accepted.increment();
                priority = (int) p;
            }
        }
        double load = 0.0;
        if (loadValue != null) {
            long micro = parseDecimal(loadValue, 6);
            if (micro == MALFORMED) {
                ignore(2, Ignored.MALFORMED);
            } else if (micro == NEGATIVE) {
                ignore(2, Ignored.NEGATIVE);
            } else if (micro == OVERFLOW || micro > (long) (MAX_LOAD_LEVEL * 1_000_000L)) {
                ignore(2, Ignored.ABSURD);
            } else {
                accepted.increment();
                load = micro / 1_000_000.0;
            }
        }
        return new Incoming(Deadline.at(instant, ticker), given, priority, load);
    }

    /** The wall clock in epoch nanoseconds (millisecond resolution), saturated. */
    private long wallNanos() {
        long ms = clock.millis();
        return ms > Long.MAX_VALUE / 1_000_000L ? Long.MAX_VALUE : ms * 1_000_000L;
    }

    private void ignore(int header, Ignored reason) {
        ignored[header][reason.ordinal()].increment();
    }

    /**
     * Parses a plain non-negative decimal into a long scaled by {@code 10^scale}: digits, at most one
     * dot followed by at most {@code scale} digits, surrounding spaces allowed, at most 32 characters.
     *
     * @return the scaled value, or {@link #MALFORMED}, {@link #NEGATIVE}, {@link #OVERFLOW}
     */
    static long parseDecimal(CharSequence s, int scale) {
        int len = s.length();
        if (len > MAX_LENGTH) {
            return MALFORMED;
        }
        int i = 0;
        while (i < len && s.charAt(i) == ' ') {
            i++;
        }
        int end = len;
        while (end > i && s.charAt(end - 1) == ' ') {
            end--;
        }
        if (i == end) {
            return MALFORMED;
        }
        boolean negative = false;
        if (s.charAt(i) == '-' || s.charAt(i) == '+') {
            negative = s.charAt(i) == '-';
            i++;
        }
        long value = 0;
        int digits = 0;
        int fraction = -1;
        boolean overflow = false;
        for (; i < end; i++) {
            char c = s.charAt(i);
            if (c == '.') {
                if (fraction >= 0) {
                    return MALFORMED;
                }
                fraction = 0;
                continue;
            }
            if (c < '0' || c > '9') {
                return MALFORMED;
            }
            digits++;
            if (fraction >= 0) {
                fraction++;
                if (fraction > scale) {
                    return MALFORMED;
                }
            }
            if (value > (Long.MAX_VALUE - 9) / 10) {
                overflow = true;
            } else {
                value = value * 10 + (c - '0');
            }
        }
        if (digits == 0) {
            return MALFORMED;
        }
        if (negative) {
            return value == 0 && !overflow ? 0 : NEGATIVE;
        }
        if (overflow) {
            return OVERFLOW;
        }
        int pad = scale - Math.max(0, fraction);
        for (int k = 0; k < pad; k++) {
            if (value > Long.MAX_VALUE / 10) {
                return OVERFLOW;
            }
            value *= 10;
        }
        return value;
    }

    // ------------------------------------------------------------------ rules

    /**
     * Seed 002's signal rules, as a shedder: too little time left, or a loaded caller's low-priority
     * request.
     *
     * @param in the extracted signals
     * @return {@link ShedDecision#DEADLINE}, {@link ShedDecision#UPSTREAM_LOAD} or {@link ShedDecision#ADMITTED}
     */
    public ShedDecision decide(Incoming in) {
        if (in.deadline().remainingNanos(ticker.read()) < minRemainingNanos) {
            return ShedDecision.DEADLINE;
        }
        if (in.upstreamLoad() > upstreamLoadThreshold && in.priority() < lowPriorityBelow) {
            return ShedDecision.UPSTREAM_LOAD;
        }
        return ShedDecision.ADMITTED;
    }

    /**
     * Values ignored for one header and reason.
     *
     * @param headerName {@value #DEADLINE}, {@value #PRIORITY} or {@value #LOAD_LEVEL}
     * @param reason why
     * @return the count
     */
    public long ignoredCount(String headerName, Ignored reason) {
        int h = DEADLINE.equalsIgnoreCase(headerName) ? 0 : PRIORITY.equalsIgnoreCase(headerName) ? 1
                : LOAD_LEVEL.equalsIgnoreCase(headerName) ? 2 : -1;
        return h < 0 ? 0 : ignored[h][reason.ordinal()].sum();
    }

    /** @return values ignored, all headers and reasons */
    public long ignoredCount() {
        long sum = 0;
        for (LongAdder[] row : ignored) {
            for (LongAdder a : row) {
                sum += a.sum();
            }
        }
        return sum;
    }

    /** @return header values accepted */
    public long acceptedCount() {
        return accepted.sum();
    }

    /** Builds {@link LoadSignalHeaders}; {@link #build()} validates. */
    public static final class Builder {
        private static final String POLICY = "LoadSignalHeaders";
        private double reserve = DEFAULT_RESERVE;
        private Duration localMaximum = Duration.ofSeconds(DEFAULT_LOCAL_MAXIMUM_SECONDS);
        private Duration minRemaining = Duration.ofMillis(DEFAULT_MIN_REMAINING_MILLIS);
        private Duration absurdAfter = DEFAULT_ABSURD_AFTER;
        private double upstreamLoadThreshold = DEFAULT_UPSTREAM_LOAD_THRESHOLD;
        private int lowPriorityBelow = DEFAULT_LOW_PRIORITY_BELOW;
        private Clock clock = Clock.systemUTC();
        private Ticker ticker = Ticker.system();

        private Builder() {}

        /**
         * @param reserve the share of the remaining time passed downstream (default 0.9; a fraction in (0, 1])
         * @return this builder
         */
        public Builder reserve(double reserve) {
            this.reserve = reserve;
            return this;
        }

        /**
         * @param localMaximum the deadline of a request without a valid header, and the cap on one (default 30 s)
         * @return this builder
         */
        public Builder localMaximum(Duration localMaximum) {
            this.localMaximum = localMaximum;
            return this;
        }

        /**
         * @param minRemaining less time left than this is shed (default 100 ms)
         * @return this builder
         */
        public Builder minRemaining(Duration minRemaining) {
            this.minRemaining = minRemaining;
            return this;
        }

        /**
         * @param absurdAfter a deadline farther than this in either direction is ignored (default 1 day)
         * @return this builder
         */
        public Builder absurdAfter(Duration absurdAfter) {
            this.absurdAfter = absurdAfter;
            return this;
        }

        /**
         * @param threshold upstream load above which low priority is shed (default 0.9)
         * @return this builder
         */
        public Builder upstreamLoadThreshold(double threshold) {
            this.upstreamLoadThreshold = threshold;
            return this;
        }

        /**
         * @param level priorities below this are low (default 3)
         * @return this builder
         */
        public Builder lowPriorityBelow(int level) {
            this.lowPriorityBelow = level;
            return this;
        }

        /**
         * @param clock the wall clock the absolute deadline is read against (default UTC system clock)
         * @return this builder
         */
        public Builder clock(Clock clock) {
            this.clock = clock;
            return this;
        }

        /**
         * @param ticker the ticker deadlines are created on (default the system ticker)
         * @return this builder
         */
        public Builder ticker(Ticker ticker) {
            this.ticker = ticker;
            return this;
        }

        /**
         * Validates and builds.
         *
         * @return the headers helper
         * @throws dev.levee.core.InvalidConfigException naming the field, bound and value
         */
        public LoadSignalHeaders build() {
            Validate.check(reserve > 0.0 && reserve <= 1.0, POLICY, "reserve",
                    reserve > 1.0 ? "a fraction in (0, 1] (was it given in percent?)" : "a fraction in (0, 1]", reserve);
            Validate.positive(POLICY, "localMaximum", localMaximum);
            Validate.check(localMaximum.compareTo(Duration.ofDays(1)) <= 0, POLICY, "localMaximum", "<= 1 day", localMaximum);
            Validate.nonNegative(POLICY, "minRemaining", minRemaining);
            Validate.check(minRemaining.compareTo(localMaximum) < 0, POLICY, "minRemaining", "< localMaximum", minRemaining);
            Validate.positive(POLICY, "absurdAfter", absurdAfter);
            Validate.check(absurdAfter.compareTo(Duration.ofDays(3650)) <= 0, POLICY, "absurdAfter", "<= 3650 days", absurdAfter);
            Validate.check(upstreamLoadThreshold >= 0.0 && upstreamLoadThreshold <= MAX_LOAD_LEVEL, POLICY,
                    "upstreamLoadThreshold", "in [0, 100]", upstreamLoadThreshold);
            Validate.inRange(POLICY, "lowPriorityBelow", lowPriorityBelow, RequestPriority.MIN, RequestPriority.MAX + 1);
            Validate.notNull(POLICY, "clock", clock);
            Validate.notNull(POLICY, "ticker", ticker);
            return new LoadSignalHeaders(this);
        }
    }
}
