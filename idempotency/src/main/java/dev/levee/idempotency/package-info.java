/**
 * Safe retries of writes, server side: an idempotency guard around a request handler executes a request
 * that carries an idempotency key once, replays its stored response to duplicates, answers a duplicate
 * that arrives while the first is running, and refuses a reused key with a different request. The
 * records live in an {@link dev.levee.idempotency.IdempotencyStore}: bounded in memory here, shared on
 * Redis in {@code levee-redis}. The client side (a key made once per logical call and sent on every
 * attempt) is in {@code levee-retry}. The user guide is {@code docs/idempotency.md}.
 */
@NullMarked
package dev.levee.idempotency;

import org.jspecify.annotations.NullMarked;
