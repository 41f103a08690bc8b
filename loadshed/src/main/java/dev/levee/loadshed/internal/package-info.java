/**
 * Implementation details of the load-shedding module: not for users, may change without notice.
 */
package dev.levee.loadshed.internal;
