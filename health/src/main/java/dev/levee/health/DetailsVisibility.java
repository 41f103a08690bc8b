package dev.levee.health;

/**
 * Who sees the checks, messages and details of a report on the {@link HealthEndpoint}. Everyone
 * always sees the level and status (that is what probes need); the rest can name internal hosts,
 * versions and errors, so it is hidden unless configured.
 */
public enum DetailsVisibility {
    /** Status only (the default). */
    NEVER,
    /** Every caller sees everything: for an endpoint only operators can reach. */
    ALWAYS,
    /** Callers the configured {@link HealthEndpointConfig#authorizer() authorizer} accepts. */
    WHEN_AUTHORIZED
}
