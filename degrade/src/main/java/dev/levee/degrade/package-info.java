/**
 * Graceful degradation: answer with something useful — and say so — when a dependency fails.
 *
 * <ul>
 *   <li>{@link dev.levee.degrade.Fallback}: a wrapper policy trying an ordered chain of
 *       {@link dev.levee.degrade.FallbackTier}s (full → cached → popular → static → maintenance), each
 *       with an optional timeout, triggered by the reasons of core's rejections
 *       ({@link dev.levee.degrade.FallbackReason}) and the shared {@link dev.levee.core.Classifier};</li>
 *   <li>{@link dev.levee.degrade.Degraded}: the answer with its {@code degraded} flag, reason, tier,
 *       cause and age, for callers who must tell their client;</li>
 *   <li>{@link dev.levee.degrade.LastKnownGood}: per-key last successful values served within a
 *       bounded staleness;</li>
 *   <li>{@link dev.levee.degrade.Coalescer}: single-flight request coalescing, with an optional hold
 *       window and {@link dev.levee.degrade.XFetch} early refresh;</li>
 *   <li>{@link dev.levee.degrade.DegradationLevel}: load-driven feature toggles with hysteresis.</li>
 * </ul>
 *
 * <p>Never silent: every fallback is counted ({@code levee.degrade.fallbacks{name,reason,tier}}),
 * logged at WARN (rate-limited per name) and published as an event. See {@code docs/degrade.md}.
 */
package dev.levee.degrade;
