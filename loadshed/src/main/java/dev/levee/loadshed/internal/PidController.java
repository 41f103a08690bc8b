package dev.levee.loadshed.internal;

/**
 * The PID controller of seed 000 ("Control Theory &amp; Adaptive Load Shedding",
 * {@code PIDLoadShedder.update}), turning a measured value into a rejection probability. Pure and
 * single-writer: the owner calls {@link #update} on a fixed interval from one thread.
 *
 * <pre>
 *   error     = measured − setpoint
 *   P         = kp · error
 *   integral  = clamp(integral + error · dt, 0, maxIntegral)      (anti-windup; seed: [0, 100])
 *   I         = ki · integral
 *   D         = kd · (error − lastError) / dt
 *   rejection = clamp((P + I + D) / outputScale, 0, 1)             (seed: outputScale 1000)
 * </pre>
 */
public final class PidController {
    private final double setpoint;
    private final double kp;
    private final double ki;
    private final double kd;
    private final double maxIntegral;
    private final double outputScale;

    private double integral;
    private double lastError;
    private double rejection;

    /**
     * @param setpoint the value to hold the measurement at
     * @param kp proportional gain
     * @param ki integral gain
     * @param kd derivative gain
     * @param maxIntegral the integral's upper clamp (its lower clamp is 0)
     * @param outputScale the divisor turning the controller output into a probability
     */
    public PidController(double setpoint, double kp, double ki, double kd, double maxIntegral, double outputScale) {
        this.setpoint = setpoint;
        this.kp = kp;
        this.ki = ki;
        this.kd = kd;
        this.maxIntegral = maxIntegral;
        this.outputScale = outputScale;
    }

    /**
     * Feeds one measurement.
     *
     * @param measured the process variable (e.g. p99 latency in ms)
     * @param dtSeconds seconds since the previous update, &gt; 0
     * @return the new rejection probability, in [0, 1]
     */
    public double update(double measured, double dtSeconds) {
        double error = measured - setpoint;
        double p = kp * error;
        integral = Math.max(0.0, Math.min(maxIntegral, integral + error * dtSeconds));
        double i = ki * integral;
        double d = kd * (error - lastError) / dtSeconds;
        lastError = error;
        double output = p + i + d;
        double r = output / outputScale;
        rejection = r > 1.0 ? 1.0 : (r > 0.0 ? r : 0.0); // NaN (a NaN measurement) becomes 0: never shed on bad data
        return rejection;
    }

    /** @return the last rejection probability */
    public double rejection() {
        return rejection;
    }

    /** @return the clamped integral */
    public double integral() {
        return integral;
    }

    /** @return the last error */
    public double lastError() {
        return lastError;
    }
}
