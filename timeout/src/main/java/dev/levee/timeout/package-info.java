/**
 * Timeouts and deadline propagation: the Timeout decorator for synchronous and asynchronous calls, deadline headers, adaptive timeouts and timeout budgets. Filled by the timeout issue.
 */
package dev.levee.timeout;
