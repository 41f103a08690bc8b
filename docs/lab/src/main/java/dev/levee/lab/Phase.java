package dev.levee.lab;

/**
 * One step of the script.
 *
 * @param key a short name used in the report and the tests
 * @param seconds how long it lasts
 * @param load the offered load as a multiple of the steady rate
 * @param mode what the downstream's dependency does meanwhile
 * @param shows what this phase demonstrates, for the report
 */
record Phase(String key, int seconds, double load, ServerMode mode, String shows) {}
