package dev.levee.core.internal;

import dev.levee.core.Subscription;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

class EventListenersTest {

    @Test
    void publishesInOrderAndUnsubscribes() {
        EventListeners<String> listeners = new EventListeners<>();
        List<String> seen = new ArrayList<>();
        assertThat(listeners.isEmpty()).isTrue();

        Subscription a = listeners.subscribe(e -> seen.add("a:" + e));
        Subscription b = listeners.subscribe(e -> seen.add("b:" + e));
        listeners.publish("1");
        a.close();
        a.close();
        listeners.publish("2");
        b.close();

        assertThat(seen).containsExactly("a:1", "b:1", "b:2");
        assertThat(listeners.isEmpty()).isTrue();
    }

    @Test
    void sameListenerTwiceIsRemovedOneSubscriptionAtATime() {
        EventListeners<String> listeners = new EventListeners<>();
        List<String> seen = new ArrayList<>();
        Consumer<String> l = seen::add;
        Subscription first = listeners.subscribe(l);
        listeners.subscribe(l);
        first.close();
        listeners.publish("x");
        assertThat(seen).containsExactly("x");
    }

    @Test
    void aFailingListenerDoesNotStopOthersButErrorsPropagate() {
        EventListeners<String> listeners = new EventListeners<>();
        List<String> seen = new ArrayList<>();
        listeners.subscribe(e -> {
            throw new IllegalStateException("bad listener");
        });
        listeners.subscribe(seen::add);
        listeners.publish("x");
        assertThat(seen).containsExactly("x");

        EventListeners<String> fatal = new EventListeners<>();
        fatal.subscribe(e -> {
            throw new OutOfMemoryError("real");
        });
        assertThatThrownBy(() -> fatal.publish("x")).isInstanceOf(OutOfMemoryError.class);
    }

    @Test
    void unsubscribingAMiddleListenerKeepsTheOthersInOrder() {
        EventListeners<String> listeners = new EventListeners<>();
        List<String> seen = new ArrayList<>();
        listeners.subscribe(e -> seen.add("a:" + e));
        Subscription b = listeners.subscribe(e -> seen.add("b:" + e));
        listeners.subscribe(e -> seen.add("c:" + e));
        listeners.subscribe(e -> seen.add("d:" + e));
        b.close();
        listeners.publish("1");
        assertThat(seen).containsExactly("a:1", "c:1", "d:1");
        assertThat(listeners.isEmpty()).isFalse();
    }

    @Test
    void metricNamesArePrefixedPatternAndThing() {
        assertThat(MetricNames.name("bulkhead", "rejected")).isEqualTo("levee.bulkhead.rejected");
    }
}
