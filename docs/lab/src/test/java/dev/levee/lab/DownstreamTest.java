package dev.levee.lab;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The downstream on virtual time: capacity, queueing, and the protected admission path. */
class DownstreamTest {
    private final LabSettings settings = LabSettings.defaults();
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    private Downstream downstream(boolean protect) {
        return new Downstream(settings, protect, ticker, scheduler, RandomSource.seeded(1));
    }

    private static Request request(long id, long remainingMillis) {
        return new Request(id, 5, "acme", remainingMillis * LabSettings.MS, 1);
    }

    @Test
    void theWorkersServeOneRequestEachAndTheRestWait() {
        Downstream d = downstream(false);
        List<Reply> replies = new ArrayList<>();
        for (int i = 0; i < settings.workers() + 3; i++) {
            d.handle(request(i, 1000), replies::add);
        }
        assertThat(d.inflight()).isEqualTo(settings.workers() + 3);
        scheduler.advance(settings.serviceNanos() * 11 / 10);     // every first request done (100 ms +/- 10%)
        assertThat(replies).hasSize(settings.workers()).allMatch(r -> r.status() == 200);
        scheduler.advance(settings.serviceNanos() * 2);
        assertThat(replies).hasSize(settings.workers() + 3);
        assertThat(d.inflight()).isZero();
    }

    @Test
    void theUnprotectedServerRefusesOnlyWhenItsAcceptQueueIsFull() {
        Downstream d = downstream(false);
        List<Reply> replies = new ArrayList<>();
        for (int i = 0; i < settings.workers() + settings.queueBound() + 1; i++) {
            d.handle(request(i, 0), replies::add);                  // no time left: it works on them anyway
        }
        assertThat(replies).containsExactly(Reply.shed("queue_full"));
        assertThat(d.shedCounts()).containsEntry("queue_full", 1L);
    }

    @Test
    void theProtectedServerRefusesWhatCannotFinishInTimeAndWhatExceedsItsLimit() {
        Downstream d = downstream(true);
        List<Reply> replies = new ArrayList<>();
        d.handle(request(0, 50), replies::add);                      // less than one service time left
        assertThat(replies).containsExactly(Reply.shed("deadline"));
        replies.clear();
        for (int i = 1; i <= 40; i++) {
            d.handle(request(i, 1000), replies::add);
        }
        assertThat(d.inflight()).isLessThanOrEqualTo(d.limit());
        assertThat(replies).isNotEmpty().allMatch(r -> r.status() == 503);
        assertThat(d.shedCounts().keySet()).isSubsetOf("deadline", "concurrency_limit", "low_priority_shed", "queue_full");
    }

    @Test
    void duringTheOutageRequestsHangThenFail() {
        Downstream d = downstream(false);
        d.mode(ServerMode.OUTAGE);
        List<Reply> replies = new ArrayList<>();
        d.handle(request(0, 1000), replies::add);
        scheduler.advance(settings.outageHangNanos() - 1);
        assertThat(replies).isEmpty();
        scheduler.advance(1);
        assertThat(replies).containsExactly(Reply.ERROR);
    }
}
