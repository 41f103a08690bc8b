package dev.levee.degrade;

/**
 * A snapshot of a {@link DegradationLevel}.
 *
 * @param level the current level ({@link DegradationLevel#FULL} = 0)
 * @param raised how many times the level went up
 * @param lowered how many times the level went down
 * @param lastLoad the last load read
 */
public record DegradationLevelMetrics(int level, long raised, long lowered, double lastLoad) {}
