/**
 * Implementation details of the load-shedding module: not for users, may change without notice. The
 * controllers (CoDel, PID) are pure, single-writer classes fed by samples, so the queues, gates,
 * simulations and tests share one definition of each state machine.
 */
package dev.levee.loadshed.internal;
