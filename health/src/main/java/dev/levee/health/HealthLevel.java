package dev.levee.health;

import java.util.Locale;

/**
 * The question a probe asks. Each level has its own checks, its own timeout and its own path on the
 * {@link HealthEndpoint}.
 *
 * <table>
 *   <caption>Levels</caption>
 *   <tr><th>level</th><th>question</th><th>path</th><th>who asks</th><th>on UNHEALTHY</th></tr>
 *   <tr><td>LIVENESS</td><td>is the process alive (not wedged)?</td><td>{@code /health/live}</td>
 *       <td>Kubernetes liveness probe</td><td>restart the container</td></tr>
 *   <tr><td>READINESS</td><td>can this instance take traffic now?</td><td>{@code /health/ready}</td>
 *       <td>readiness probe, load balancer</td><td>take it out of rotation</td></tr>
 *   <tr><td>STARTUP</td><td>has initialisation finished?</td><td>{@code /health/started}</td>
 *       <td>startup probe</td><td>keep waiting (then restart)</td></tr>
 *   <tr><td>DEEP</td><td>does everything work (liveness + readiness + deep checks)?</td>
 *       <td>{@code /health/deep}</td><td>monitoring, humans</td><td>alert; never route on it</td></tr>
 * </table>
 */
public enum HealthLevel {
    /** Is the process alive? Local checks only; never a dependency. */
    LIVENESS("live"),
    /** Can this instance serve traffic? Local resources and dependencies, with a timeout. */
    READINESS("ready"),
    /** Has initialisation finished? */
    STARTUP("started"),
    /** Full validation: every liveness, readiness and deep check. */
    DEEP("deep");

    private final String path;
    private final String tag = name().toLowerCase(Locale.ROOT);

    HealthLevel(String path) {
        this.path = path;
    }

    /**
     * The last path segment on the endpoint.
     *
     * @return {@code live}, {@code ready}, {@code started} or {@code deep}
     */
    public String path() {
        return path;
    }

    /**
     * The lower-case name used in JSON bodies and metric tags.
     *
     * @return {@code liveness}, {@code readiness}, {@code startup} or {@code deep}
     */
    public String tag() {
        return tag;
    }
}
