package dev.wharf.jms.config;

import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * One connection option as declared in {@link ConnectionOptionTable}: its name (the JavaBean property, URL parameter,
 * JNDI reference address and {@code wharf.options} key), its type, its default, the check that normalizes a value
 * or refuses it with a sentence naming the option and the allowed values, and one line of documentation (the
 * README's option table is made from it). Immutable.
 *
 * @param index        position in the table, and so in a holder's array of values
 * @param name         the option's name
 * @param type         {@code String}, {@code Integer}, {@code Long} or {@code Boolean}
 * @param defaultValue the value of a factory that was told nothing (null for "unset")
 * @param checker      normalizes a value or refuses it; see {@link #check}
 * @param doc          one line saying what the option does, with its unit
 * @param listing      which settings maps list it
 * @param <T>          the value type
 */
public record ConnectionOption<T>(int index, String name, Class<T> type, T defaultValue, UnaryOperator<T> checker,
                                  String doc, Listing listing) {

    /** Which options a settings map (JNDI reference, log line, serialized form) lists. */
    public enum Listing {
        /** Always, with its value. */
        ALWAYS,
        /** Only when it is set (not null). */
        WHEN_SET,
        /** Only when TLS is on; TLS details of a factory without TLS are noise. */
        WITH_TLS,
        /** Never: a password must not reach a JNDI tree, a log or a serialized factory. */
        SECRET
    }

    /** Whether the option is a password (never listed, logged or serialized). */
    public boolean isSecret() {
        return listing == Listing.SECRET;
    }

    /**
     * Checks a value and returns it normalized (trimmed, empty for null where the option has no "unset").
     *
     * @throws IllegalArgumentException naming the option, the value and what is allowed
     */
    public T check(T value) {
        if (value == null && (type == Integer.class || type == Long.class || type == Boolean.class)) {
            throw new IllegalArgumentException(name + " must be given a value; leave it out for the default "
                    + defaultValue + ".");
        }
        return checker.apply(value);
    }

    /**
     * Converts a setting given as text (a URL parameter, a JNDI address, a property) and checks it.
     *
     * @throws IllegalArgumentException naming the option and the text when it is not of the option's type or
     *                                  not allowed
     */
    public T parse(String raw) {
        String text = raw == null ? "" : raw.strip();
        T value;
        try {
            value = type.cast(convert(text));
        } catch (IllegalArgumentException notOfTheType) {
            throw new IllegalArgumentException("Setting " + name + "=" + raw + " is not a valid "
                    + type.getSimpleName().toLowerCase(Locale.ROOT).replace("integer", "int") + ".");
        }
        try {
            return check(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Setting " + name + "=" + raw + " was refused: " + e.getMessage(), e);
        }
    }

    /** The text as a value of the type; IllegalArgumentException (NumberFormatException) when it is none. */
    private Object convert(String text) {
        if (type == Integer.class) {
            return Integer.valueOf(text);
        }
        if (type == Long.class) {
            return Long.valueOf(text);
        }
        if (type == Boolean.class) {
            if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
                throw new IllegalArgumentException(text);
            }
            return Boolean.valueOf(text);
        }
        return text;
    }

    /** The value as a setting's text (what {@link #parse} reads back). */
    String format(Object value) {
        return String.valueOf(value);
    }

    /** The default as the README's option table shows it. */
    String defaultText() {
        if (defaultValue == null) {
            return "(unset)";
        }
        return defaultValue instanceof String s && s.isEmpty() ? "(empty)" : String.valueOf(defaultValue);
    }

    /** The type as the README's option table shows it. */
    String typeText() {
        return type == Integer.class ? "int" : type.getSimpleName().toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return name;
    }
}
