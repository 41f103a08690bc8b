package dev.levee.http;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Reads the IETF rate-limit fields a server sends (draft-ietf-httpapi-ratelimit-headers, the fields
 * Levee's own {@code RateLimitHeaders} writes), so a client can slow down before it is refused and
 * wait the right time when it is.
 *
 * <p><b>Model.</b> Both fields are structured-field lists (RFC 9651) of items with parameters:
 * <pre>
 *   RateLimit-Policy: "burst";q=100;w=60, "daily";q=1000;w=86400     quota q per window w seconds
 *   RateLimit:        "burst";r=0;t=2                                 r units remain, reset in t seconds
 * </pre>
 * An item's name is a string or a token; parameters other than {@code q}, {@code w}, {@code r} and
 * {@code t} are skipped. The earlier draft's dictionary form of {@code RateLimit}
 * ({@code limit=100, remaining=0, reset=2}) is read as one unnamed item.
 *
 * <p><b>Guarantees.</b> The value is untrusted input; parsing never throws. A value longer than
 * {@value #MAX_LENGTH} characters is ignored whole; at most {@value #MAX_ITEMS} items are read; an item
 * that is malformed (an unterminated string, a negative or non-integer number, an integer of more
 * than 15 digits — the structured-field limit) or lacks its required parameter ({@code r} for
 * {@code RateLimit}, {@code q} for {@code RateLimit-Policy}) is dropped, and the items after it are
 * still read.
 *
 * <p><b>Cost.</b> One pass over the characters; allocates the returned list and its records.
 */
public final class RateLimitFields {
    /** The field {@code RateLimit}. */
    public static final String RATE_LIMIT = "RateLimit";
    /** The field {@code RateLimit-Policy}. */
    public static final String RATE_LIMIT_POLICY = "RateLimit-Policy";
    /** Longer values are ignored. */
    public static final int MAX_LENGTH = 1024;
    /** At most this many items are read from one value. */
    public static final int MAX_ITEMS = 16;

    private static final int MAX_INTEGER_DIGITS = 15;
    private static final long ABSENT = -1;

    private RateLimitFields() {}

    /**
     * Reads a {@code RateLimit} value.
     *
     * @param value the field's value, may be null
     * @return the well-formed items, in order; empty when there are none
     */
    public static List<RateLimitStatus> parseRateLimit(@Nullable CharSequence value) {
        List<RateLimitStatus> out = new ArrayList<>();
        for (Item item : items(value)) {
            long remaining = item.param("r");
            if (remaining == ABSENT) {
                remaining = item.param("remaining");            // the earlier draft's dictionary form
            }
            long reset = item.param("t");
            if (reset == ABSENT) {
                reset = item.param("reset");
            }
            if (remaining >= 0) {
                out.add(new RateLimitStatus(item.name, remaining, reset));
            }
        }
        return out;
    }

    /**
     * Reads a {@code RateLimit-Policy} value.
     *
     * @param value the field's value, may be null
     * @return the well-formed items, in order; empty when there are none
     */
    public static List<RateLimitQuota> parsePolicy(@Nullable CharSequence value) {
        List<RateLimitQuota> out = new ArrayList<>();
        for (Item item : items(value)) {
            long quota = item.param("q");
            if (quota >= 0) {
                out.add(new RateLimitQuota(item.name, quota, item.param("w")));
            }
        }
        return out;
    }

    /**
     * The wait the {@code RateLimit} items ask for: the longest reset among the exhausted items (a
     * request must wait until every exhausted quota has reset).
     *
     * @param statuses items from {@link #parseRateLimit(CharSequence)}
     * @return seconds to wait, or {@code -1} when no item is exhausted with a known reset
     */
    public static long retryAfterSeconds(List<RateLimitStatus> statuses) {
        long wait = -1;
        for (RateLimitStatus status : statuses) {
            if (status.exhausted() && status.resetSeconds() > wait) {
                wait = status.resetSeconds();
            }
        }
        return wait;
    }

    /** An item: its name and up to a few integer parameters (the only kind these fields carry). */
    private static final class Item {
        String name = "";
        final List<String> keys = new ArrayList<>(4);
        final List<Long> values = new ArrayList<>(4);

        long param(String key) {
            int i = keys.indexOf(key);
            return i < 0 ? ABSENT : values.get(i);
        }
    }

    private static List<Item> items(@Nullable CharSequence value) {
        List<Item> items = new ArrayList<>();
        if (value == null || value.length() > MAX_LENGTH) {
            return items;
        }
        Cursor c = new Cursor(value);
        boolean dictionary = isDictionary(value);
        Item dictionaryItem = new Item();
        while (c.more() && items.size() < MAX_ITEMS) {
            c.skipSpaces();
            if (dictionary) {
                // limit=100, remaining=0, reset=2: each member is a parameter of one unnamed item
                String key = c.key();
                long number = key.isEmpty() || !c.take('=') ? ABSENT : c.integer();
                if (number >= 0) {
                    dictionaryItem.keys.add(key);
                    dictionaryItem.values.add(number);
                }
            } else {
                Item item = c.item();
                if (item != null) {
                    items.add(item);
                }
            }
            c.skipToNextMember();
        }
        if (dictionary && !dictionaryItem.keys.isEmpty()) {
            items.add(dictionaryItem);
        }
        return items;
    }

    private static boolean isRead(String key) {
        return switch (key) {
            case "r", "t", "q", "w", "remaining", "reset" -> true;
            default -> false;
        };
    }

    /** The earlier draft's form starts with a bare {@code key=}, where an item starts with a name then {@code ;}. */
    private static boolean isDictionary(CharSequence value) {
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch == '=') {
                return true;
            }
            if (ch == ';' || ch == '"' || ch == ',') {
                return false;
            }
        }
        return false;
    }

    /** A read position over a value; every method stops at malformed input without throwing. */
    private static final class Cursor {
        private final CharSequence s;
        private int i;
        private boolean broken;

        Cursor(CharSequence s) {
            this.s = s;
        }

        boolean more() {
            return i < s.length();
        }

        void skipSpaces() {
            while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
                i++;
            }
        }

        boolean take(char expected) {
            if (i < s.length() && s.charAt(i) == expected) {
                i++;
                return true;
            }
            return false;
        }

        /** Moves past the next top-level comma (commas inside strings do not count). */
        void skipToNextMember() {
            boolean inString = false;
            while (i < s.length()) {
                char ch = s.charAt(i++);
                if (inString) {
                    if (ch == '\\') {
                        i++;
                    } else if (ch == '"') {
                        inString = false;
                    }
                } else if (ch == '"') {
                    inString = true;
                } else if (ch == ',') {
                    broken = false;
                    return;
                }
            }
        }

        @Nullable Item item() {
            broken = false;
            Item item = new Item();
            if (take('"')) {
                StringBuilder name = new StringBuilder();
                while (true) {
                    if (!more()) {
                        return null;                            // unterminated string
                    }
                    char ch = s.charAt(i++);
                    if (ch == '"') {
                        break;
                    }
                    if (ch == '\\') {
                        if (!more()) {
                            return null;
                        }
                        ch = s.charAt(i++);
                    }
                    name.append(ch);
                }
                item.name = name.toString();
            } else {
                item.name = key();
                if (item.name.isEmpty()) {
                    return null;
                }
            }
            while (true) {
                skipSpaces();
                if (!take(';')) {
                    break;
                }
                skipSpaces();
                String key = key();
                if (key.isEmpty()) {
                    return null;
                }
                if (!take('=')) {
                    continue;                                   // a bare key is boolean true; none is read here
                }
                if (!isRead(key)) {
                    if (!skipBareValue()) {
                        return null;
                    }
                    continue;                                   // a parameter these fields do not define
                }
                long number = integer();
                if (broken) {
                    return null;
                }
                if (!item.keys.contains(key)) {
                    item.keys.add(key);
                    item.values.add(number);
                }
            }
            skipSpaces();
            return more() && s.charAt(i) != ',' ? null : item;  // trailing garbage makes the item malformed
        }

        /** Skips a parameter value of another type: a string, a byte sequence, a token or a number. */
        boolean skipBareValue() {
            if (take('"')) {
                while (more()) {
                    char ch = s.charAt(i++);
                    if (ch == '\\') {
                        i++;
                    } else if (ch == '"') {
                        return true;
                    }
                }
                return false;
            }
            if (take(':')) {
                while (more()) {
                    if (s.charAt(i++) == ':') {
                        return true;
                    }
                }
                return false;
            }
            int start = i;
            while (more() && s.charAt(i) != ';' && s.charAt(i) != ',' && s.charAt(i) != ' ' && s.charAt(i) != '\t') {
                i++;
            }
            return i > start;
        }

        /** A token or key: letters, digits and the characters keys and tokens may hold. */
        String key() {
            int start = i;
            while (i < s.length()) {
                char ch = s.charAt(i);
                if ((ch < 128 && Character.isLetterOrDigit(ch)) || ch == '_' || ch == '-' || ch == '.' || ch == '*'
                        || ch == ':' || ch == '/') {
                    i++;
                } else {
                    break;
                }
            }
            return s.subSequence(start, i).toString();
        }

        /** A non-negative integer of at most 15 digits; anything else marks the item broken and gives -1. */
        long integer() {
            int start = i;
            long n = 0;
            while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                if (i - start == MAX_INTEGER_DIGITS) {
                    broken = true;
                    return ABSENT;
                }
                n = n * 10 + (s.charAt(i) - '0');
                i++;
            }
            if (i == start || i < s.length() && s.charAt(i) == '.') {
                broken = true;                                  // a sign, a decimal or nothing at all
                return ABSENT;
            }
            return n;
        }
    }
}
