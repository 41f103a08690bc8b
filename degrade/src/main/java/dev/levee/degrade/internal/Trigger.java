package dev.levee.degrade.internal;

import dev.levee.core.Classifier;
import dev.levee.core.Outcome;
import dev.levee.core.internal.Exceptions;
import dev.levee.degrade.FallbackConfig;
import dev.levee.degrade.FallbackReason;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * Decides whether a failure or a result triggers a fallback, and for which reason: the
 * {@link Classifier} must say failure, the reason must be configured, and an {@link Error} or an
 * {@link InterruptedException} never triggers one.
 */
public final class Trigger {
    private final String description;
    private final Classifier classifier;
    private final boolean classifiesResults;
    /** Bit {@code reason.ordinal()} set for each reason that triggers a fallback. */
    private final int reasonMask;
    private final Logger log;

    /**
     * @param description the policy for log messages, e.g. {@code Fallback 'recs'}
     * @param config the classifier and reasons
     * @param log where a throwing classifier is reported
     */
    public Trigger(String description, FallbackConfig config, Logger log) {
        this.description = description;
        this.classifier = config.classifier();
        this.classifiesResults = classifier.classifiesResults() && config.reasons().contains(FallbackReason.RESULT);
        int mask = 0;
        for (FallbackReason reason : config.reasons()) {
            mask |= 1 << reason.ordinal();
        }
        this.reasonMask = mask;
        this.log = log;
    }

    /** @return whether results must be checked at all */
    public boolean classifiesResults() {
        return classifiesResults;
    }

    /**
     * The reason {@code failure} triggers a fallback.
     *
     * @param failure what the call threw
     * @return the reason, or null when the failure must pass through unchanged
     */
    public @Nullable FallbackReason reasonFor(Throwable failure) {
        if (failure instanceof Error || failure instanceof InterruptedException) {
            return null;
        }
        Throwable cause = Exceptions.unwrap(failure);
        if (cause instanceof Error || cause instanceof InterruptedException) {
            return null;
        }
        Outcome outcome;
        try {
            outcome = classifier.classify(cause);
        } catch (RuntimeException classifierFailure) {
            if (classifierFailure != failure) {
                failure.addSuppressed(classifierFailure);
            }
            log.warn("{}: the classifier threw; the failure passes through unchanged", description, classifierFailure);
            return null;
        }
        if (outcome != Outcome.FAILURE) {
            return null;
        }
        FallbackReason reason = FallbackReason.of(cause);
        return (reasonMask & (1 << reason.ordinal())) != 0 ? reason : null;
    }

    /**
     * Whether a returned value triggers a fallback ({@link FallbackReason#RESULT}).
     *
     * @param result the value
     * @return true if the result predicate counts it as a failure; false if it throws
     */
    @SuppressWarnings("NullAway") // results may be null; core's classifyResult documents "possibly null"
    public boolean isBad(@Nullable Object result) {
        try {
            return classifier.classifyResult(result) == Outcome.FAILURE;
        } catch (RuntimeException classifierFailure) {
            log.warn("{}: the result classifier threw; the result is kept", description, classifierFailure);
            return false;
        }
    }
}
