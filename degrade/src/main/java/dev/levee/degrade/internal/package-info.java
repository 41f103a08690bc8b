/** Implementation classes of the degrade module; not part of the API and may change without notice. */
package dev.levee.degrade.internal;
