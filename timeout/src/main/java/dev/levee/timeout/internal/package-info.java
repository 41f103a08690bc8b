/**
 * Implementation classes of the timeout module: the worker-thread call, the executor selection, the
 * latency histogram behind the adaptive timeout, the header parsers. Not for users: may change
 * without notice.
 */
package dev.levee.timeout.internal;
