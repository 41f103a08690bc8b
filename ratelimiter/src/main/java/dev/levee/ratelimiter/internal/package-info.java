/** Implementation classes of the rate limiters. Not for users: may change without notice. */
package dev.levee.ratelimiter.internal;
