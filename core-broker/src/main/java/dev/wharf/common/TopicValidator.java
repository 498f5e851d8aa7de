package dev.wharf.common;

import java.nio.charset.StandardCharsets;

/**
 * Rules for topic (and consumer group) names. A name ends up in file paths
 * ({@code consumequeue/{topic}/...}) and in the one-byte topic length of the commit-log record,
 * so the character set and the length are restricted.
 */
public final class TopicValidator {

    /** Longest topic name in bytes; the record stores the length in one byte and we keep it positive. */
    public static final int MAX_TOPIC_LENGTH = 127;

    private TopicValidator() {
    }

    /**
     * Checks a topic name.
     *
     * @return {@code null} when the name is valid, otherwise a sentence that says what is wrong
     */
    public static String check(String topic) {
        return checkName("topic", topic);
    }

    /** Checks a consumer or producer group name; same rules as a topic, since groups name retry topics. */
    public static String checkGroup(String group) {
        return checkName("group", group);
    }

    /** Throws {@link IllegalArgumentException} with the reason when the topic name is invalid. */
    public static void validate(String topic) {
        String error = check(topic);
        if (error != null) {
            throw new IllegalArgumentException(error);
        }
    }

    /** Throws {@link IllegalArgumentException} with the reason when the group name is invalid. */
    public static void validateGroup(String group) {
        String error = checkGroup(group);
        if (error != null) {
            throw new IllegalArgumentException(error);
        }
    }

    private static String checkName(String what, String name) {
        if (name == null || name.isEmpty()) {
            return "The " + what + " name is empty; give a name of 1 to " + MAX_TOPIC_LENGTH
                    + " characters from [A-Za-z0-9_%|.-].";
        }
        if (name.equals(".") || name.equals("..")) {
            // the name becomes a directory under consumequeue/: these two would point outside it
            return "The " + what + " name \"" + name + "\" is reserved; choose a name with at least one letter or digit.";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!isAllowed(c)) {
                return "The " + what + " name \"" + name + "\" contains the character '" + printable(c)
                        + "' at position " + (i + 1) + "; only letters, digits and _ % | . - are allowed.";
            }
        }
        int bytes = name.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_TOPIC_LENGTH) {
            return "The " + what + " name \"" + name.substring(0, 20) + "...\" is " + bytes
                    + " bytes long; the limit is " + MAX_TOPIC_LENGTH + " bytes.";
        }
        return null;
    }

    private static boolean isAllowed(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '_' || c == '%' || c == '|' || c == '-' || c == '.';
    }

    private static String printable(char c) {
        return Character.isISOControl(c) || Character.isWhitespace(c)
                ? String.format("\\u%04x", (int) c) : String.valueOf(c);
    }
}
