package dev.levee.redis.idempotency;

import dev.levee.redis.RedisTestSupport;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import java.util.Map;
import java.util.TreeMap;

/** The idempotency store's tests: {@code byte[]} connections and Redis's own count of commands. */
abstract class IdempotencyRedisSupport extends RedisTestSupport {

    static StatefulRedisConnection<byte[], byte[]> connectBytes() {
        return client.connect(ByteArrayCodec.INSTANCE);
    }

    /**
     * Calls per command since the last {@code CONFIG RESETSTAT}, as the server counts them
     * ({@code INFO commandstats}), without the commands of this bookkeeping ({@code info}, {@code config}).
     */
    static Map<String, Long> commandCalls(StatefulRedisConnection<String, String> admin) {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : admin.sync().info("commandstats").split("\r?\n")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            String command = line.substring("cmdstat_".length(), line.indexOf(':'));
            if (command.equals("info") || command.startsWith("config")) {
                continue;
            }
            int at = line.indexOf("calls=") + "calls=".length();
            int end = line.indexOf(',', at);
            calls.put(command, Long.parseLong(line.substring(at, end)));
        }
        return calls;
    }
}
