package dev.wharf.broker.config;

import java.util.List;

/** The range check every part of the broker configuration uses, so the sentences read alike. */
final class ConfigChecks {

    private ConfigChecks() {
    }

    /** Adds "name is value; use ..." to {@code errors} when the value lies outside [min, max]. */
    static void range(List<String> errors, String name, long value, long min, long max) {
        if (value < min || value > max) {
            errors.add(name + " is " + value + "; use " + (max == Long.MAX_VALUE || max == Integer.MAX_VALUE
                    ? "at least " + min : "a value from " + min + " to " + max) + ".");
        }
    }
}
