/**
 * Bulkheads: semaphore, thread pool, keyed and shuffle-sharded. Filled by the bulkhead issue.
 */
package dev.levee.bulkhead;
