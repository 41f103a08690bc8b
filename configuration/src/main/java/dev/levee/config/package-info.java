/**
 * Levee configuration from properties: {@link dev.levee.config.LeveeProperties} builds every Levee
 * config, named policy and registry from {@code java.util.Properties} or a {@code Map<String, String>}
 * (keys {@code levee.<pattern>.<name>.<field>}, a {@code default} name the others inherit), with no
 * framework dependency. Depends on every pattern module (it builds their configs); a pattern module
 * never depends on it.
 */
package dev.levee.config;
