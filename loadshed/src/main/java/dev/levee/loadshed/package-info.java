/**
 * Load shedding (planned): adaptive concurrency limits (AIMD, gradient, Vegas), CoDel, PID and
 * priority shedders, deadline-aware queues. No API yet; it arrives with its own issue.
 */
package dev.levee.loadshed;
