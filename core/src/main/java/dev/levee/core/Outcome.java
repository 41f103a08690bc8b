package dev.levee.core;

/** How a finished call counts for a policy that learns from outcomes. */
public enum Outcome {
    /** The call succeeded: counts as a success. */
    SUCCESS,
    /** The call failed in a way that says something about the protected resource: counts as a failure. */
    FAILURE,
    /** The outcome says nothing about the resource: not counted, not retried, no fallback. */
    IGNORED
}
