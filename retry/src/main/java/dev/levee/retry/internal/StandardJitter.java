package dev.levee.retry.internal;

import dev.levee.core.RandomSource;
import dev.levee.retry.Jitter;

/** The parameterless jitters; formulas in {@link Jitter}. */
public enum StandardJitter implements Jitter {
    /** {@code d}. */
    NONE {
        @Override
        public long apply(long d, long prev, long base, long cap, RandomSource random) {
            return d;
        }
    },
    /** {@code floor(r · d)}. */
    FULL {
        @Override
        public long apply(long d, long prev, long base, long cap, RandomSource random) {
            return (long) (random.nextDouble() * d);
        }
    },
    /** {@code d/2 + floor(r · (d - d/2))}. */
    EQUAL {
        @Override
        public long apply(long d, long prev, long base, long cap, RandomSource random) {
            long half = d / 2;
            return half + (long) (random.nextDouble() * (d - half));
        }
    },
    /** {@code min(cap, base + floor(r · (max(base, 3·prev) - base)))}, prev = base before the first retry. */
    DECORRELATED {
        @Override
        public long apply(long d, long prev, long base, long cap, RandomSource random) {
            long last = prev <= 0 ? base : prev;
            long upper = last > Long.MAX_VALUE / 3 ? Long.MAX_VALUE : last * 3;
            upper = Math.max(base, upper);
            long delay = base + (long) (random.nextDouble() * (double) (upper - base));
            return Math.min(cap, Math.max(base, delay));
        }
    };

    @Override
    public String toString() {
        return "Jitter." + name().toLowerCase(java.util.Locale.ROOT) + "()";
    }
}
