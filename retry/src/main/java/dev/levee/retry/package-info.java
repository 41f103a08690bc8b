/**
 * Retries with backoff and jitter, retry budgets, asynchronous retry and hedging. Filled by the retry issue.
 */
package dev.levee.retry;
