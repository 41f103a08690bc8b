package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The coarse ticker's documented bound, driven by an injected {@link ManualScheduler}: no thread, no
 * sleeping. The source clock and the updater's clock are separate manual tickers, so a test can stall
 * the updater while the source moves on.
 */
class CoarseTickerTest {
    private static final long RES = 1_000_000L; // 1 ms

    private final ManualTicker source = new ManualTicker(5_000_000_000L);
    private final ManualTicker updaterClock = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(updaterClock);

    @Test
    void startsAtTheSourceAndReadsAreAVolatileCopy() {
        CoarseTicker coarse = CoarseTicker.of(source, Duration.ofMillis(1), scheduler);
        assertThat(coarse.read()).isEqualTo(source.read());
        source.advance(300_000);
        assertThat(coarse.read()).as("not updated before a tick").isEqualTo(5_000_000_000L);
        assertThat(coarse.resolution()).isEqualTo(Duration.ofMillis(1));
        assertThat(scheduler.pending()).isEqualTo(1);
    }

    @Test
    void whileTheUpdaterRunsOnTimeTheLagStaysUnderOneResolutionAndTimeNeverGoesBack() {
        CoarseTicker coarse = CoarseTicker.of(source, Duration.ofMillis(1), scheduler);
        SplittableRandom random = new SplittableRandom(42);
        long previous = coarse.read();
        for (int i = 0; i < 10_000; i++) {
            long step = random.nextLong(1, RES / 3);
            source.advance(step);
            scheduler.advance(step); // the updater's clock moves with the source: it runs on time
            long reading = coarse.read();
            assertThat(reading).isGreaterThanOrEqualTo(previous);
            assertThat(source.read() - reading).isBetween(0L, RES);
            previous = reading;
        }
    }

    @Test
    void aStalledUpdaterFreezesTheReadingThenCatchesUpInOneTick() {
        CoarseTicker coarse = CoarseTicker.of(source, Duration.ofMillis(1), scheduler);
        scheduler.advance(RES);
        long frozen = coarse.read();
        // The updater thread is stalled (a GC pause, a starved machine): the source moves 250 ms on.
        source.advance(250 * RES);
        assertThat(coarse.read()).as("frozen while stalled: never guesses ahead").isEqualTo(frozen);
        assertThat(source.read() - coarse.read()).isEqualTo(250 * RES); // the lag is the stall
        // The updater runs again: one tick brings the reading to the source, not one resolution per tick.
        assertThat(scheduler.advance(RES)).isEqualTo(1);
        assertThat(coarse.read()).isEqualTo(source.read());
    }

    @Test
    void neverMovesBackwardsEvenIfTheSourceDoes() {
        ManualTicker[] jumpy = {new ManualTicker(1_000_000)};
        Ticker backwards = () -> jumpy[0].read();
        CoarseTicker coarse = CoarseTicker.of(backwards, Duration.ofMillis(1), scheduler);
        jumpy[0] = new ManualTicker(10); // a source that went backwards
        scheduler.advance(RES);
        assertThat(coarse.read()).isEqualTo(1_000_000);
    }

    @Test
    void theUpdaterStopsWhenItsTickerIsUnreachable() {
        CoarseTicker coarse = CoarseTicker.of(source, Duration.ofMillis(1), scheduler);
        scheduler.advance(RES);
        assertThat(scheduler.pending()).isEqualTo(1);
        coarse = null;
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            System.gc();
            scheduler.advance(RES);
            return scheduler.pending() == 0;
        });
        assertThat(coarse).isNull();
    }

    @Test
    void theSharedThreadStartsOnFirstUseAndStopsWhenNoTickerIsReachable() {
        CoarseTicker shared = Ticker.coarse();
        assertThat(Ticker.coarse()).as("one instance per resolution while in use").isSameAs(shared);
        assertThat(Ticker.coarse(Duration.ofMillis(1))).isSameAs(shared);
        assertThat(CoarseTicker.sharedThreadRunning()).isTrue();
        long first = shared.read();
        await().atMost(Duration.ofSeconds(20)).until(() -> shared.read() > first);
        assertThat(shared.resolution()).isEqualTo(Duration.ofMillis(1)); // keeps it reachable up to here
        assertThat(threadNamed("levee-coarse-ticker")).isTrue();
    }

    @Test
    void theSharedThreadStopsWhenNoCoarseTickerIsReachable() {
        CoarseTicker shared = Ticker.coarse(Duration.ofMillis(2));
        assertThat(CoarseTicker.sharedThreadRunning()).isTrue();
        shared = null;
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            System.gc();
            return !CoarseTicker.sharedThreadRunning();
        });
        assertThat(shared).isNull();
    }

    /**
     * Two shared tickers of different resolutions on the one daemon thread: the one that becomes
     * unreachable stops alone (its entry goes, the other keeps its instance, so gates using it still
     * fuse); when the last goes, the thread itself ends.
     */
    @Test
    void theLastSharedTickerGoingEndsTheDaemonThreadAndAnEarlierOneLeavesTheOthersInstance() {
        Duration kept = Duration.ofMillis(3);
        Duration dropped = Duration.ofMillis(7);
        CoarseTicker keptTicker = Ticker.coarse(kept);
        CoarseTicker droppedTicker = Ticker.coarse(dropped);
        assertThat(CoarseTicker.sharedTickerListed(dropped)).isTrue();
        assertThat(liveThreadsNamed("levee-coarse-ticker")).isNotEmpty().allMatch(Thread::isDaemon);

        droppedTicker = null;
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            System.gc();
            return !CoarseTicker.sharedTickerListed(dropped);
        });
        assertThat(droppedTicker).isNull();
        assertThat(CoarseTicker.sharedTickerListed(kept)).isTrue();
        assertThat(Ticker.coarse(kept)).as("the live ticker keeps its instance").isSameAs(keptTicker);
        assertThat(CoarseTicker.sharedThreadRunning()).isTrue();

        keptTicker = null;
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            System.gc();
            return !CoarseTicker.sharedThreadRunning() && liveThreadsNamed("levee-coarse-ticker").isEmpty();
        });
        assertThat(keptTicker).isNull();
    }

    private static java.util.List<Thread> liveThreadsNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals(name) && t.isAlive()).toList();
    }

    @Test
    void resolutionBoundsAreValidated() {
        assertThatThrownBy(() -> Ticker.coarse(Duration.ofNanos(99_999)))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("resolution").hasMessageContaining("100");
        assertThatThrownBy(() -> Ticker.coarse(Duration.ofMillis(1001)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("resolution");
        assertThatThrownBy(() -> Ticker.coarse(Duration.ofDays(100_000_000)))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("resolution");
        assertThatThrownBy(() -> Ticker.coarse(null))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("resolution");
        assertThatThrownBy(() -> CoarseTicker.of(null, Duration.ofMillis(1), scheduler))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("source");
        assertThatThrownBy(() -> CoarseTicker.of(source, Duration.ofMillis(1), null))
                .isInstanceOf(InvalidConfigException.class).hasMessageContaining("scheduler");
        assertThat(CoarseTicker.of(source, CoarseTicker.MIN_RESOLUTION, scheduler).resolution())
                .isEqualTo(Duration.ofNanos(100_000));
        assertThat(CoarseTicker.of(source, CoarseTicker.MAX_RESOLUTION, scheduler).resolution())
                .isEqualTo(Duration.ofSeconds(1));
    }

    private static boolean threadNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name));
    }
}
