package dev.levee.retry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.levee.core.ManualTicker;
import dev.levee.core.RandomSource;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.Test;

/**
 * Two attempts of one call that choose the same untried replica at the same moment go to two replicas:
 * the one whose claim fails chooses again. Found in CI by the synchronous hedge test (two hedges on one
 * replica, about once in 20,000 calls); here the interleaving is forced with a scripted random source
 * that holds the first attempt between its choice and its claim.
 */
class ReplicaSetUntriedClaimRaceTest {
    private static final long ONE_SECOND = 1_000_000_000L;
    private final ManualTicker ticker = new ManualTicker();

    @Test
    void anAttemptWhoseChoiceWasClaimedMeanwhileChoosesAgain() throws Exception {
        CountDownLatch firstChose = new CountDownLatch(1);
        CountDownLatch secondClaimed = new CountDownLatch(1);
        Thread[] first = new Thread[1];
        AtomicInteger firstDraws = new AtomicInteger();
        // Every draw is 0. P2C draws its first candidate, then its second: the first attempt's second draw
        // is the moment its first candidate (r0) is chosen but not yet claimed; it waits there.
        RandomSource scripted = () -> {
            if (Thread.currentThread() == first[0] && firstDraws.incrementAndGet() == 2) {
                firstChose.countDown();
                awaitQuietly(secondClaimed);
            }
            return 0.0;
        };
        ReplicaSet<String> set = ReplicaSet.of("race", ReplicaSetConfig.builder().ticker(ticker).random(scripted)
                .selectionRule(SelectionRule.PEAK_EWMA).build(), List.of("r0", "r1", "r2"));
        for (int slow : new int[] {1, 2}) {
            set.onSuccess(set.pick(new int[] {slow}), ONE_SECOND); // r1 and r2 answer in 1 s: r0 is the cheapest
        }
        AtomicLongArray tried = set.newTriedSet();
        CompletableFuture<Integer> firstPick = new CompletableFuture<>();
        first[0] = new Thread(() -> firstPick.complete(set.pickUntried(ticker.read(), tried)), "first-attempt");
        first[0].start();
        assertThat(firstChose.await(60, TimeUnit.SECONDS)).isTrue();

        int second = set.pickUntried(ticker.read(), tried);
        secondClaimed.countDown();

        assertThat(second).as("the second attempt claims r0").isZero();
        assertThat(firstPick.get(60, TimeUnit.SECONDS)).as("the first chose r0 too, lost the claim, chose again")
                .isNotEqualTo(second);
        assertThat(tried.get(0)).as("both picks claimed").isEqualTo(0b011L);
        assertThat(set.outstanding(0) + set.outstanding(1) + set.outstanding(2)).isEqualTo(2);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            // Were this to time out, the first attempt would claim first and the test fail: far past any stall.
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
