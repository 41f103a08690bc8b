/**
 * Concurrency-limit algorithms: the {@link dev.levee.loadshed.limit.LimitAlgorithm} SPI and one class
 * per algorithm ({@link dev.levee.loadshed.limit.LatencyAimdLimit} from seed 002,
 * {@link dev.levee.loadshed.limit.DropAimdLimit}, {@link dev.levee.loadshed.limit.VegasLimit},
 * {@link dev.levee.loadshed.limit.GradientLimit}, {@link dev.levee.loadshed.limit.FixedLimit}).
 */
package dev.levee.loadshed.limit;
