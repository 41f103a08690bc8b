/**
 * Overload signals, each a core {@link dev.levee.core.LoadSignal} (0 idle, 1 at capacity) read as a
 * volatile on the hot path: CPU ({@link dev.levee.loadshed.signal.CpuLoadSignal}), heap after GC
 * ({@link dev.levee.loadshed.signal.MemoryLoadSignal}), queue delay
 * ({@link dev.levee.loadshed.signal.QueueDelaySignal}), in-flight share
 * ({@link dev.levee.loadshed.signal.InFlightSignal}); and load-signal propagation across services
 * ({@link dev.levee.loadshed.signal.LoadSignalHeaders}).
 */
package dev.levee.loadshed.signal;
