/** Implementation of the retry module; not for users, may change without notice. */
package dev.levee.retry.internal;
