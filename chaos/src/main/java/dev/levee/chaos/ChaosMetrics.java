package dev.levee.chaos;

/**
 * A snapshot of a {@link Chaos} policy.
 *
 * @param enabled whether the policy injects now
 * @param kind what it injects
 * @param injectionRate the configured fraction of selected calls that get the fault, in [0, 1]
 * @param injections faults injected since the policy was built
 */
public record ChaosMetrics(boolean enabled, ChaosKind kind, double injectionRate, long injections) {}
