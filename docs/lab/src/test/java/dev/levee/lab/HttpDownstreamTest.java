package dev.levee.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.RandomSource;
import dev.levee.core.Scheduler;
import dev.levee.core.Ticker;
import java.net.http.HttpClient;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The downstream on a real loopback socket: the headers arrive, the replies come back with their shed
 * reason, and hostile header values fall back to defaults. Waits only for completion, asserts no timing.
 */
class HttpDownstreamTest {

    @Test
    void aRealRequestOverLoopbackIsServedOrShedWithItsReason() throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(4);
        Downstream downstream = new Downstream(LabSettings.defaults(), true, Ticker.system(), Scheduler.system(), RandomSource.seeded(1));
        try (HttpDownstream server = new HttpDownstream(downstream, executor)) {
            assertThat(server.uri().getHost()).isEqualTo("127.0.0.1");
            HttpTransport transport = new HttpTransport(HttpClient.newBuilder().executor(executor).build(), server.uri(), executor);

            Reply served = transport.send(new Request(1, 5, "acme", 5_000 * LabSettings.MS, 1)).get(30, TimeUnit.SECONDS);
            Reply tooLate = transport.send(new Request(2, 5, "acme", 10 * LabSettings.MS, 1)).get(30, TimeUnit.SECONDS);

            assertThat(served).isEqualTo(Reply.OK);
            assertThat(tooLate).isEqualTo(Reply.shed("deadline"));
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void hostileHeaderValuesFallBackToDefaults() {
        assertThat(HttpDownstream.parse("250", 0, 30_000, 7)).isEqualTo(250);
        for (String hostile : new String[] {null, "", "-1", "1e3", " 5", "5 ", "0x10", "99999999999999999999", "31000", "NaN"}) {
            assertThat(HttpDownstream.parse(hostile, 0, 30_000, 7)).as("%s", hostile).isEqualTo(7);
        }
        assertThat(HttpDownstream.tenant("acme")).isEqualTo("acme");
        assertThat(HttpDownstream.tenant("<script>")).isEqualTo("unknown");
        assertThat(HttpDownstream.tenant("x".repeat(33))).isEqualTo("unknown");
        assertThat(HttpDownstream.tenant(null)).isEqualTo("unknown");
    }
}
