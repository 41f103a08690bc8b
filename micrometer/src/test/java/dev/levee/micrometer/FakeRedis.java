package dev.levee.micrometer;

import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A stand-in for a Redis connection's scripting commands, so the Redis policies can be created and
 * driven without a server: every {@code EVALSHA} answers {@link #answer} at once, or fails as a refused
 * connection while {@link #down} is set. Only {@code evalsha} and {@code eval} are implemented.
 */
final class FakeRedis {
    /** A rate limiter script's answer: granted, balance 9, never retry, reset 0, wait 0. */
    static final List<Object> GRANTED = List.of(1L, 9L, -1L, 0L, 0L);
    /** A rate limiter script's answer: refused, balance 0, retry and reset after 1 ms. */
    static final List<Object> REFUSED = List.of(0L, 0L, 1_000L, 1_000L, 0L);

    volatile Object answer = GRANTED;
    volatile boolean down;

    /** The commands, typed for the connection the policy wants ({@code String} or {@code byte[]}). */
    @SuppressWarnings("unchecked")
    <K, V> RedisScriptingAsyncCommands<K, V> commands() {
        return (RedisScriptingAsyncCommands<K, V>) Proxy.newProxyInstance(FakeRedis.class.getClassLoader(),
                new Class<?>[] {RedisScriptingAsyncCommands.class}, (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "evalsha":
                        case "eval":
                            Done<Object> done = new Done<>();
                            if (down) {
                                done.completeExceptionally(new RedisConnectionException("refused (fake)"));
                            } else {
                                done.complete(answer);
                            }
                            return done;
                        case "toString":
                            return "FakeRedis";
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == args[0];
                        default:
                            throw new UnsupportedOperationException(method.getName());
                    }
                });
    }

    /** A future completed at once. */
    private static final class Done<T> extends CompletableFuture<T> implements RedisFuture<T> {
        @Override
        public String getError() {
            return isCompletedExceptionally() ? "ERR" : null;
        }

        @Override
        public boolean await(long timeout, TimeUnit unit) {
            return isDone();
        }
    }
}
