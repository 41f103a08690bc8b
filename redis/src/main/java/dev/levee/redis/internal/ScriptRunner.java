package dev.levee.redis.internal;

import dev.levee.core.Ticker;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs Levee's Lua scripts on the user's connection (the rate limiter's and the idempotency store's): {@code EVALSHA} first; on {@code NOSCRIPT}
 * (after a {@code SCRIPT FLUSH}, a restart or a failover to a replica that never saw the script)
 * {@code EVAL} with the source, which also puts the script back in the server's cache, so the next
 * call's {@code EVALSHA} succeeds again. Every call is bounded by the call timeout, the fallback
 * included: the timeout is one budget for both round trips.
 *
 * <p>{@link #run} returns a script's raw answer (what the idempotency store reads). {@link #call} and
 * {@link #callAsync} read a rate limiter script's answer: five integers, granted (0/1), balance,
 * retryAfter (µs, −1 = never), resetAfter (µs), wait (µs); see the scripts beside this class.
 *
 * @param <K> the connection's key type
 * @param <V> the connection's value type
 */
public final class ScriptRunner<K, V> {
    /** The number of integers a script answers. */
    public static final int RESULT_SIZE = 5;
    /** Index of the grant flag (1 = granted) in a result. */
    public static final int GRANTED = 0;
    /** Index of the balance (permits left; negative = debt) in a result. */
    public static final int BALANCE = 1;
    /** Index of retryAfter (µs; −1 = never) in a result. */
    public static final int RETRY_AFTER = 2;
    /** Index of resetAfter (µs) in a result. */
    public static final int RESET_AFTER = 3;
    /** Index of the wait of a reservation (µs) in a result. */
    public static final int WAIT = 4;

    /** Real time for the timeout budget (the limiter's ticker may be a test's manual one). */
    private static final Ticker CLOCK = Ticker.system();

    private final RedisScriptingAsyncCommands<K, V> commands;
    private final long timeoutNanos;
    private final LongAdder reloads = new LongAdder();

    /**
     * @param commands the user's connection's commands
     * @param timeoutNanos the budget of one call, at least 1
     */
    public ScriptRunner(RedisScriptingAsyncCommands<K, V> commands, long timeoutNanos) {
        this.commands = commands;
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * How many times a script was missing on the server and sent again with {@code EVAL}.
     *
     * @return the count
     */
    public long reloads() {
        return reloads.sum();
    }

    /**
     * Runs a rate limiter script and waits for its answer, at most the call timeout.
     *
     * @param script the script
     * @param keys its keys
     * @param args its arguments
     * @return the five integers it answered
     * @throws StoreException on a timeout, a connection failure, a server error or an unexpected answer
     * @throws InterruptedException if interrupted while waiting (the command is cancelled)
     */
    public long[] call(RedisScript script, K[] keys, V[] args) throws StoreException, InterruptedException {
        List<Object> answer = run(script, ScriptOutputType.MULTI, keys, args);
        return parse(answer);
    }

    /**
     * Runs a script and waits for its raw answer, at most the call timeout: {@code EVALSHA}, and on
     * {@code NOSCRIPT} {@code EVAL} with the source within what is left of the same budget.
     *
     * @param <T> the answer's type, as {@code type} makes Lettuce decode it
     * @param script the script
     * @param type how Lettuce decodes the answer
     * @param keys its keys
     * @param args its arguments
     * @return the answer
     * @throws StoreException on a timeout, a connection failure or a server error
     * @throws InterruptedException if interrupted while waiting (the command is cancelled)
     */
    public <T> T run(RedisScript script, ScriptOutputType type, K[] keys, V[] args)
            throws StoreException, InterruptedException {
        long start = CLOCK.read();
        try {
            RedisFuture<T> first = commands.evalsha(script.sha(), type, keys, args);
            return await(first, timeoutNanos);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof RedisNoScriptException)) {
                throw new StoreException(causeOf(e));
            }
        } catch (RuntimeException e) {
            throw new StoreException(e);
        }
        reloads.increment();
        long left = timeoutNanos - (CLOCK.read() - start);
        if (left <= 0) {
            throw new StoreException(new TimeoutException("no answer within the call timeout"));
        }
        try {
            RedisFuture<T> second = commands.eval(script.source(), type, keys, args);
            return await(second, left);
        } catch (ExecutionException e) {
            throw new StoreException(causeOf(e));
        } catch (RuntimeException e) {
            throw new StoreException(e);
        }
    }

    /**
     * Runs a script without waiting: the answer (or the failure) completes the stage, at the latest
     * after the call timeout (then with a {@link TimeoutException}).
     *
     * @param script the script
     * @param keys its keys
     * @param args its arguments
     * @return the five integers it answers
     */
    public CompletableFuture<long[]> callAsync(RedisScript script, K[] keys, V[] args) {
        CompletableFuture<long[]> result = new CompletableFuture<>();
        try {
            RedisFuture<List<Object>> first = commands.evalsha(script.sha(), ScriptOutputType.MULTI, keys, args);
            first.whenComplete((answer, error) -> {
                if (error == null) {
                    complete(result, answer);
                } else if (unwrap(error) instanceof RedisNoScriptException) {
                    reloads.increment();
                    RedisFuture<List<Object>> second = commands.eval(script.source(), ScriptOutputType.MULTI, keys, args);
                    second.whenComplete((again, error2) -> {
                        if (error2 == null) {
                            complete(result, again);
                        } else {
                            result.completeExceptionally(unwrap(error2));
                        }
                    });
                } else {
                    result.completeExceptionally(unwrap(error));
                }
            });
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
        return result.orTimeout(timeoutNanos, TimeUnit.NANOSECONDS);
    }

    private static void complete(CompletableFuture<long[]> result, List<Object> answer) {
        try {
            result.complete(parse(answer));
        } catch (StoreException e) {
            result.completeExceptionally(e.getCause());
        }
    }

    private static <T> T await(RedisFuture<T> future, long nanos)
            throws ExecutionException, InterruptedException, StoreException {
        try {
            return future.get(nanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new StoreException(e);
        } catch (InterruptedException e) {
            future.cancel(false);
            throw e;
        }
    }

    private static long[] parse(List<Object> answer) throws StoreException {
        if (answer == null || answer.size() != RESULT_SIZE) {
            throw new StoreException(new IllegalStateException("unexpected script answer " + answer));
        }
        long[] result = new long[RESULT_SIZE];
        for (int i = 0; i < RESULT_SIZE; i++) {
            Object value = answer.get(i);
            if (!(value instanceof Long)) {
                throw new StoreException(new IllegalStateException("unexpected script answer " + answer));
            }
            result[i] = (Long) value;
        }
        return result;
    }

    private static Throwable causeOf(ExecutionException e) {
        return e.getCause() == null ? e : e.getCause();
    }

    private static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }
}
