package dev.levee.chaos;

import dev.levee.core.PolicyEvent;

/** What a {@link Chaos} policy reports to its listeners; built only when someone listens. */
public sealed interface ChaosEvent extends PolicyEvent {

    /**
     * A fault was injected into a call.
     *
     * @param policyName the policy's name
     * @param tickerNanos the policy's ticker when it happened
     * @param kind what was injected
     */
    record Injected(String policyName, long tickerNanos, ChaosKind kind) implements ChaosEvent {}

    /**
     * The run-time switch changed.
     *
     * @param policyName the policy's name
     * @param tickerNanos the policy's ticker when it happened
     * @param enabled the new state
     */
    record Switched(String policyName, long tickerNanos, boolean enabled) implements ChaosEvent {}
}
