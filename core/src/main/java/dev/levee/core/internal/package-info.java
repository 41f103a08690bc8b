/** Implementation helpers shared by Levee's modules; not part of the API and may change without notice. */
package dev.levee.core.internal;
