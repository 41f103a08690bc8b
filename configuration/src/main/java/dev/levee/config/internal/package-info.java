/** Reflection over config builders and value parsing for {@code dev.levee.config}; not API. */
package dev.levee.config.internal;
