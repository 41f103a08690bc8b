package dev.levee.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PolicyRegistryTest {
    record Config(int size) {}

    record Thing(String name, Config config) {}

    @Test
    void sixteenThreadsAskingForOneNewNameGetOneInstance() throws Exception {
        AtomicInteger created = new AtomicInteger();
        PolicyRegistry<Config, Thing> registry = PolicyRegistry.create(new Config(1), (name, config) -> {
            created.incrementAndGet();
            return new Thing(name, config);
        });
        int threads = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 50; round++) {
                String name = "dep-" + round;
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Thing>> results = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    results.add(pool.submit(() -> {
                        start.await();
                        return registry.get(name);
                    }));
                }
                start.countDown();
                Thing first = results.get(0).get(60, TimeUnit.SECONDS);
                for (Future<Thing> f : results) {
                    assertThat(f.get(60, TimeUnit.SECONDS)).isSameAs(first);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(created).hasValue(50);
        assertThat(registry.names()).hasSize(50);
    }

    @Test
    void namedConfigsDefaultsFindAndRemove() {
        PolicyRegistry<Config, Thing> registry = PolicyRegistry.create(new Config(1), Thing::new);
        registry.addConfig("big", new Config(100));

        assertThat(registry.get("a").config()).isEqualTo(new Config(1));
        assertThat(registry.get("b", "big").config()).isEqualTo(new Config(100));
        assertThat(registry.get("c", new Config(7)).config()).isEqualTo(new Config(7));
        assertThat(registry.get("b", new Config(5)).config()).as("existing policy kept").isEqualTo(new Config(100));
        assertThat(registry.config("big")).contains(new Config(100));
        assertThat(registry.defaultConfig()).isEqualTo(new Config(1));
        assertThat(registry.find("a")).isPresent();
        assertThat(registry.find("zzz")).isEmpty();
        assertThat(registry.all()).hasSize(3);
        assertThat(registry.asMap()).containsKeys("a", "b", "c");

        Thing a = registry.get("a");
        assertThat(registry.remove("a")).contains(a);
        assertThat(registry.get("a")).isNotSameAs(a);
    }

    @Test
    void unknownConfigNameIsAClearError() {
        PolicyRegistry<Config, Thing> registry = PolicyRegistry.create(new Config(1), Thing::new);
        registry.addConfig("big", new Config(100));

        assertThatThrownBy(() -> registry.get("x", "huge"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("PolicyRegistry: no config named 'huge' for policy 'x'; known configs: [big]");
    }

    @Test
    void nullArgumentsAreRejected() {
        assertThatThrownBy(() -> PolicyRegistry.create(null, Thing::new)).isInstanceOf(NullPointerException.class);
        PolicyRegistry<Config, Thing> registry = PolicyRegistry.create(new Config(1), (n, c) -> null);
        assertThatThrownBy(() -> registry.get("x"))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("factory returned null for 'x'");
    }

    @Test
    void creationListenersSeeEachNewPolicyOnce() {
        PolicyRegistry<Config, Thing> registry = PolicyRegistry.create(new Config(1), Thing::new);
        List<String> seen = new ArrayList<>();
        Subscription s = registry.onCreated(t -> seen.add(t.name()));
        registry.get("a");
        registry.get("a");
        registry.get("b", new Config(2));
        s.close();
        registry.get("c");
        assertThat(seen).containsExactly("a", "b");
    }

    @Test
    void addConfigChainsAndAnExistingNameKeepsItsPolicyWhateverTheConfigName() {
        PolicyRegistry<Config, Thing> registry = PolicyRegistry.create(new Config(1), Thing::new);
        assertThat(registry.addConfig("big", new Config(100)).addConfig("small", new Config(2))).isSameAs(registry);
        Thing b = registry.get("b", "big");
        assertThat(registry.get("b", "small")).isSameAs(b);
    }
}
