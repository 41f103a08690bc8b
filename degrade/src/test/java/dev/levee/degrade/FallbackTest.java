package dev.levee.degrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.levee.core.Classifier;
import dev.levee.core.Deadline;
import dev.levee.core.DeadlineExceededException;
import dev.levee.core.ManualScheduler;
import dev.levee.core.ManualTicker;
import dev.levee.core.Pipeline;
import dev.levee.degrade.testing.RecordingLogs;
import dev.levee.timeout.Timeout;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

class FallbackTest {
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final FallbackConfig config = FallbackConfig.builder().ticker(ticker).scheduler(scheduler).build();

    // ---------------------------------------------------------------- errors and throwing fallbacks

    @Test
    void anErrorPassesThroughUntouchedAndNoTierRuns() {
        List<String> called = new ArrayList<>();
        Fallback<String> fallback = Fallback.of("errors", config, FallbackTier.of("static", cause -> {
            called.add("static");
            return "static";
        }));
        OutOfMemoryError oom = new OutOfMemoryError("heap");
        StackOverflowError soe = new StackOverflowError();

        assertThatThrownBy(() -> fallback.get(() -> {
            throw oom;
        })).isSameAs(oom);
        assertThatThrownBy(() -> Pipeline.of(fallback).execute(() -> {
            throw soe;
        })).isSameAs(soe);
        assertThat(oom.getSuppressed()).isEmpty();
        assertThat(called).isEmpty();
        assertThat(fallback.metrics().fallbacks()).isZero();
    }

    @Test
    void anErrorPassesThroughEvenWhenTheClassifierRecordsErrors() {
        FallbackConfig recording = config.toBuilder().classifier(Classifier.builder().recordErrors(true).build()).build();
        Fallback<String> fallback = Fallback.of("errors-recorded", recording, FallbackTier.ofValue("static", "static"));
        AssertionError error = new AssertionError("bug");

        assertThatThrownBy(() -> fallback.get(() -> {
            throw error;
        })).isSameAs(error);
    }

    @Test
    void anAsynchronousErrorPassesThroughUntouched() {
        Fallback<String> fallback = Fallback.of("errors-async", config, FallbackTier.ofValue("static", "static"));
        OutOfMemoryError oom = new OutOfMemoryError("heap");

        CompletableFuture<String> answer = fallback.executeAsync(() -> CompletableFuture.<String>failedFuture(oom))
                .toCompletableFuture();

        assertThat(answer).isCompletedExceptionally();
        assertThatThrownBy(answer::join).hasCauseReference(oom);
        java.util.concurrent.atomic.AtomicReference<Throwable> seen = new java.util.concurrent.atomic.AtomicReference<>();
        answer.whenComplete((value, failure) -> seen.set(failure));
        assertThat(seen.get()).isSameAs(oom); // not wrapped in a CompletionException
    }

    @Test
    void anInterruptedExceptionIsNotAFailureToFallBackFrom() {
        Fallback<String> fallback = Fallback.of("interrupted", config, FallbackTier.ofValue("static", "static"));
        InterruptedException interrupted = new InterruptedException();

        assertThatThrownBy(() -> fallback.get(() -> {
            throw interrupted;
        })).isSameAs(interrupted);
    }

    @Test
    void aThrowingFallbackYieldsTheOriginalExceptionWithTheFallbacksSuppressed() {
        IOException tierFailure = new IOException("cache down too");
        Fallback<String> fallback = Fallback.of("throwing-fallback", config, FallbackTier.of("cache", cause -> {
            throw tierFailure;
        }));
        IllegalStateException original = new IllegalStateException("primary down");

        assertThatThrownBy(() -> fallback.get(() -> {
            throw original;
        })).isSameAs(original);
        assertThat(original.getSuppressed()).containsExactly(tierFailure);
        assertThat(fallback.exhaustedCount(FallbackReason.ERROR)).isEqualTo(1);
        assertThat(RecordingLogs.lines(Level.ERROR, "'throwing-fallback'")).hasSize(1)
                .first().satisfies(line -> assertThat(line.error()).isSameAs(original));
    }

    @Test
    void aFallbackThatThrowsAnErrorPropagatesIt() {
        StackOverflowError error = new StackOverflowError();
        Fallback<String> fallback = Fallback.of("fallback-error", config, FallbackTier.of("broken", cause -> {
            throw error;
        }), FallbackTier.ofValue("never", "never"));

        assertThatThrownBy(() -> fallback.get(() -> {
            throw new IllegalStateException("primary");
        })).isSameAs(error);
    }

    @Test
    void aCheckedExceptionComesOutUnchangedWhenEveryTierFails() {
        Fallback<String> fallback = Fallback.of("checked", config, FallbackTier.of("broken", cause -> {
            throw new IllegalStateException("tier");
        }));
        IOException io = new IOException("primary");

        assertThatThrownBy(() -> fallback.get(() -> {
            throw io;
        })).isSameAs(io);
    }

    // ---------------------------------------------------------------- chains

    @Test
    void tiersAreTriedInOrderAndTheServingTierIsReported() {
        List<String> tried = new CopyOnWriteArrayList<>();
        Fallback<String> chain = Fallback.of("chain-order", config, List.of(
                FallbackTier.of("cached", cause -> {
                    tried.add("cached");
                    throw new IOException("cache miss");
                }),
                FallbackTier.of("popular", cause -> {
                    tried.add("popular");
                    throw new IllegalStateException("no popular list");
                }),
                FallbackTier.of("static", cause -> {
                    tried.add("static");
                    return "static page";
                }),
                FallbackTier.of("maintenance", cause -> {
                    tried.add("maintenance");
                    return "maintenance";
                })));
        IllegalStateException original = new IllegalStateException("search down");

        Degraded<String> answer = chain.executeDegraded(() -> {
            throw original;
        });

        assertThat(tried).containsExactly("cached", "popular", "static");
        assertThat(answer.tier()).isEqualTo("static");
        assertThat(answer.value()).isEqualTo("static page");
        assertThat(answer.cause()).isSameAs(original);
        assertThat(original.getSuppressed()).hasSize(2);
        assertThat(chain.metrics().tierFailures()).isEqualTo(2);
        assertThat(chain.metrics().byTier()).containsEntry("static", 1L).containsEntry("cached", 0L);
    }

    @Test
    void whenTheWholeChainFailsTheOriginalCarriesEveryTiersFailureInOrder() {
        IOException first = new IOException("first");
        IOException second = new IOException("second");
        Fallback<String> chain = Fallback.of("chain-exhausted", config, List.of(
                FallbackTier.of("a", cause -> {
                    throw first;
                }),
                FallbackTier.of("b", cause -> {
                    throw second;
                })));
        IllegalStateException original = new IllegalStateException("primary");

        assertThatThrownBy(() -> chain.get(() -> {
            throw original;
        })).isSameAs(original);
        assertThat(original.getSuppressed()).containsExactly(first, second);
        assertThat(RecordingLogs.lines(Level.ERROR, "'chain-exhausted'")).hasSize(1);
    }

    @Test
    void aSynchronousTierRunsUnderItsOwnTimeoutAsTheCurrentDeadline() {
        List<Long> remaining = new ArrayList<>();
        Fallback<String> chain = Fallback.of("tier-timeout-sync", config, List.of(
                FallbackTier.<String>of("slow-cache", cause -> {
                    remaining.add(Deadline.currentOrNull().remainingNanos());
                    ticker.advance(Duration.ofMillis(80));
                    Timeout.checkpoint(); // what any Levee policy or deadline-aware client inside does
                    return "cached";
                }).withTimeout(Duration.ofMillis(50)),
                FallbackTier.<String>of("fast-cache", cause -> {
                    remaining.add(Deadline.currentOrNull().remainingNanos());
                    ticker.advance(Duration.ofMillis(10));
                    Timeout.checkpoint();
                    return "other cache";
                }).withTimeout(Duration.ofMillis(50)),
                FallbackTier.ofValue("static", "static")));

        Degraded<String> answer = chain.executeDegraded(() -> {
            throw new IllegalStateException("primary");
        });

        assertThat(answer.tier()).isEqualTo("fast-cache");
        assertThat(remaining).containsExactly(Duration.ofMillis(50).toNanos(), Duration.ofMillis(50).toNanos());
        assertThat(Deadline.currentOrNull()).isNull();
    }

    @Test
    void anAsynchronousTierIsCutOffAtItsTimeoutAndTheNextTierServes() {
        CompletableFuture<String> hanging = new CompletableFuture<>();
        List<Throwable> tierFailures = new CopyOnWriteArrayList<>();
        Fallback<String> chain = Fallback.of("tier-timeout-async", config, List.of(
                FallbackTier.<String>ofAsync("replica", cause -> hanging).withTimeout(Duration.ofMillis(50)),
                FallbackTier.ofValue("static", "static")));
        chain.onEvent(e -> {
            if (e instanceof FallbackEvent.TierFailed failed) {
                tierFailures.add(failed.failure());
            }
        });

        CompletableFuture<Degraded<String>> answer = chain.executeDegradedAsync(
                () -> CompletableFuture.<String>failedFuture(new IllegalStateException("primary"))).toCompletableFuture();
        assertThat(answer).isNotDone();
        scheduler.advance(Duration.ofMillis(49));
        assertThat(answer).isNotDone();
        scheduler.advance(Duration.ofMillis(1));

        assertThat(answer).isDone();
        assertThat(answer.join().tier()).isEqualTo("static");
        assertThat(hanging).isCancelled();
        assertThat(tierFailures).singleElement().isInstanceOf(DeadlineExceededException.class);
    }

    @Test
    void anAsynchronousTierIsCutOffAtItsTimeoutInTheSynchronousPathToo() throws Exception {
        CompletableFuture<String> hanging = new CompletableFuture<>();
        Fallback<String> chain = Fallback.of("tier-timeout-async-in-sync", config, List.of(
                FallbackTier.<String>ofAsync("replica", cause -> hanging).withTimeout(Duration.ofMillis(50)),
                FallbackTier.ofValue("static", "static")));

        CompletableFuture<Degraded<String>> caller = CompletableFuture.supplyAsync(() -> chain.executeDegraded(() -> {
            throw new IllegalStateException("primary");
        }));
        await().atMost(60, TimeUnit.SECONDS).until(() -> scheduler.pending() == 1); // the caller is waiting
        scheduler.advance(Duration.ofMillis(50));

        assertThat(caller.get(60, TimeUnit.SECONDS).tier()).isEqualTo("static");
        assertThat(hanging).isCancelled();
    }

    @Test
    void anAsynchronousTierThatAnswersInTimeServesAndItsTimerIsCancelled() {
        Fallback<String> chain = Fallback.of("tier-async-in-time", config, List.of(
                FallbackTier.<String>ofAsync("replica", cause -> CompletableFuture.completedFuture("replica"))
                        .withTimeout(Duration.ofMillis(50))));

        assertThat(chain.get(() -> {
            throw new IllegalStateException("primary");
        })).isEqualTo("replica");
        assertThat(scheduler.pending()).isZero();
    }

    @Test
    void anAsynchronousChainTriesTiersInOrder() {
        List<String> tried = new CopyOnWriteArrayList<>();
        Fallback<String> chain = Fallback.of("chain-async", config, List.of(
                FallbackTier.<String>ofAsync("a", cause -> {
                    tried.add("a");
                    return CompletableFuture.failedFuture(new IOException("a"));
                }),
                FallbackTier.<String>of("b", cause -> {
                    tried.add("b");
                    throw new IOException("b");
                }),
                FallbackTier.<String>ofAsync("c", cause -> {
                    tried.add("c");
                    return CompletableFuture.completedFuture("c");
                })));

        Degraded<String> answer = chain.executeDegradedAsync(
                () -> CompletableFuture.<String>failedFuture(new IllegalStateException("primary"))).toCompletableFuture().join();

        assertThat(tried).containsExactly("a", "b", "c");
        assertThat(answer.tier()).isEqualTo("c");
    }

    @Test
    void anAsynchronousChainThatFailsCompletesWithTheOriginal() {
        IllegalStateException original = new IllegalStateException("primary");
        Fallback<String> chain = Fallback.of("chain-async-exhausted", config,
                FallbackTier.<String>ofAsync("a", cause -> CompletableFuture.failedFuture(new IOException("a"))));

        CompletableFuture<String> answer = chain.executeAsync(() -> CompletableFuture.<String>failedFuture(original))
                .toCompletableFuture();

        assertThatThrownBy(answer::join).hasCauseReference(original);
        assertThat(original.getSuppressed()).hasSize(1);
    }

    // ---------------------------------------------------------------- never silent

    @Test
    void everyFallbackIsCountedAndWarnedAtMostOncePerIntervalSayingHowManyWereHeld() {
        FallbackConfig quiet = config.toBuilder().warnInterval(Duration.ofSeconds(10)).build();
        Fallback<String> fallback = Fallback.of("never-silent", quiet, FallbackTier.ofValue("static", "static"));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new FallbackMetricsBinder(fallback).bindTo(registry);

        for (int i = 0; i < 5; i++) {
            fallback.get(() -> {
                throw new IllegalStateException("down");
            });
        }
        assertThat(RecordingLogs.lines(Level.WARN, "'never-silent'")).hasSize(1);
        ticker.advance(Duration.ofSeconds(9));
        fallback.get(() -> {
            throw new IllegalStateException("down");
        });
        assertThat(RecordingLogs.lines(Level.WARN, "'never-silent'")).hasSize(1);
        ticker.advance(Duration.ofSeconds(1));
        fallback.get(() -> {
            throw new IllegalStateException("down");
        });

        List<RecordingLogs.Line> warnings = RecordingLogs.lines(Level.WARN, "'never-silent'");
        assertThat(warnings).hasSize(2);
        assertThat(warnings.get(0).message()).contains("error", "served by tier 'static'");
        assertThat(warnings.get(1).message()).contains("5 more fallbacks since the last warning");
        assertThat(registry.get("levee.degrade.fallbacks").tags("name", "never-silent", "reason", "error", "tier", "static")
                .functionCounter().count()).isEqualTo(7.0);
        assertThat(registry.get("levee.degrade.fallbacks").tags("name", "never-silent", "reason", "timeout")
                .functionCounter().count()).isZero();
        assertThat(fallback.metrics().fallbacks()).isEqualTo(7);
    }

    @Test
    void aZeroWarnIntervalLogsEveryFallback() {
        Fallback<String> fallback = Fallback.of("warn-every", config.toBuilder().warnInterval(Duration.ZERO).build(),
                FallbackTier.ofValue("static", "static"));

        for (int i = 0; i < 3; i++) {
            fallback.get(() -> {
                throw new IllegalStateException("down");
            });
        }

        assertThat(RecordingLogs.lines(Level.WARN, "'warn-every'")).hasSize(3);
    }

    @Test
    void listenersSeeEveryStepOfTheChain() {
        List<FallbackEvent> events = new CopyOnWriteArrayList<>();
        Fallback<String> chain = Fallback.of("events", config, List.of(
                FallbackTier.of("a", cause -> {
                    throw new IOException("a");
                }),
                FallbackTier.ofValue("b", "b")));
        chain.onEvent(events::add);
        IllegalStateException original = new IllegalStateException("primary");

        chain.get(() -> {
            throw original;
        });

        assertThat(events).hasSize(2);
        assertThat(events.get(0)).isInstanceOfSatisfying(FallbackEvent.TierFailed.class, e -> {
            assertThat(e.tier()).isEqualTo("a");
            assertThat(e.reason()).isEqualTo(FallbackReason.ERROR);
        });
        assertThat(events.get(1)).isInstanceOfSatisfying(FallbackEvent.FellBack.class, e -> {
            assertThat(e.tier()).isEqualTo("b");
            assertThat(e.cause()).isSameAs(original);
            assertThat(e.policyName()).isEqualTo("events");
        });
    }

    @Test
    void theSuccessPathReturnsTheValueAndRecordsNothing() {
        List<FallbackEvent> events = new CopyOnWriteArrayList<>();
        Fallback<String> fallback = Fallback.ofDefaults("success", cause -> "fallback");
        fallback.onEvent(events::add);

        assertThat(fallback.get(() -> "fresh")).isEqualTo("fresh");
        assertThat(fallback.executeDegraded(() -> "fresh")).isEqualTo(Degraded.fresh("fresh"));
        assertThat(fallback.tierNames()).containsExactly(Fallback.DEFAULT_TIER);
        assertThat(events).isEmpty();
        assertThat(fallback.metrics().fallbacks()).isZero();
    }

    @Test
    void failOpenAndFailClosedTiersAreNamedForTheChoice() {
        Fallback<Boolean> featureFlag = Fallback.of("flag", config, FallbackTier.failOpen(true));
        Fallback<String> fraud = Fallback.of("fraud", config, FallbackTier.failClosed("REVIEW"));

        Degraded<Boolean> flag = featureFlag.executeDegraded(() -> {
            throw new IllegalStateException("flag service down");
        });
        Degraded<String> verdict = fraud.executeDegraded(() -> {
            throw new IllegalStateException("fraud service down");
        });

        assertThat(flag.value()).isTrue();
        assertThat(flag.tier()).isEqualTo(FallbackTier.FAIL_OPEN);
        assertThat(verdict.value()).isEqualTo("REVIEW");
        assertThat(verdict.tier()).isEqualTo(FallbackTier.FAIL_CLOSED);
    }
}
