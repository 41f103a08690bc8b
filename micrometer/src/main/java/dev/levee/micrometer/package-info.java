/**
 * One entry point for Levee's metrics: {@link dev.levee.micrometer.LeveeMeters} binds every Levee
 * policy — given one by one, in collections, or through core's {@code PolicyRegistry}, including the
 * policies a registry creates later — to a Micrometer {@code MeterRegistry}, using each pattern's own
 * {@code XMetricsBinder}, and adds latency timers ({@code levee.<pattern>.latency}) with opt-in
 * percentile histograms. Depends on every pattern module and {@code micrometer-core}; no pattern
 * module depends on it.
 */
package dev.levee.micrometer;
