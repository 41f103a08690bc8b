/**
 * Queues that shed and channels that push back: {@link dev.levee.loadshed.queue.CoDelQueue} (CoDel
 * with adaptive LIFO), {@link dev.levee.loadshed.queue.DeadlineAwareQueue} (priorities and deadlines),
 * {@link dev.levee.loadshed.queue.BoundedChannel} and {@link dev.levee.loadshed.queue.ChannelPipeline}
 * (backpressure and load leveling). Every queue reports through
 * {@link dev.levee.loadshed.queue.MeasuredQueue}; nothing is dropped without being counted with its
 * {@link dev.levee.loadshed.queue.DropReason}.
 */
package dev.levee.loadshed.queue;
