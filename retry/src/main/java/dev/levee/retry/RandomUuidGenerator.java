package dev.levee.retry;

import dev.levee.core.IdempotencyKey;
import dev.levee.core.RandomSource;

/** The built-in {@link IdempotencyKeyGenerator} of random version-4 UUIDs. */
final class RandomUuidGenerator implements IdempotencyKeyGenerator {
    static final RandomUuidGenerator THREAD_LOCAL = new RandomUuidGenerator(RandomSource.threadLocal());

    private static final long BITS_53 = 1L << 53;
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private final RandomSource random;

    RandomUuidGenerator(RandomSource random) {
        this.random = random;
    }

    @Override
    public IdempotencyKey newKey() {
        long a = random.nextLong(BITS_53);
        long b = random.nextLong(BITS_53);
        long c = random.nextLong(BITS_53);
        long msb = (a << 11) | (c >>> 42);
        long lsb = (b << 11) | (c & 0x7FFL);
        msb = (msb & ~0xF000L) | 0x4000L;                          // version 4
        lsb = (lsb & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;   // IETF variant
        return IdempotencyKey.of(format(msb, lsb));
    }

    /** The canonical 8-4-4-4-12 lower-case form, without java.util.UUID's intermediate objects. */
    static String format(long msb, long lsb) {
        char[] out = new char[36];
        hex(out, 0, msb >>> 32, 8);
        out[8] = '-';
        hex(out, 9, msb >>> 16, 4);
        out[13] = '-';
        hex(out, 14, msb, 4);
        out[18] = '-';
        hex(out, 19, lsb >>> 48, 4);
        out[23] = '-';
        hex(out, 24, lsb, 12);
        return new String(out);
    }

    private static void hex(char[] out, int at, long value, int digits) {
        for (int i = digits - 1; i >= 0; i--) {
            out[at + i] = HEX[(int) (value & 0xF)];
            value >>>= 4;
        }
    }

    @Override
    public String toString() {
        return this == THREAD_LOCAL ? "IdempotencyKeyGenerator.randomUuid()" : "IdempotencyKeyGenerator.randomUuid(" + random + ")";
    }
}
