package dev.wharf.store.cleanup;

import java.util.BitSet;

/**
 * The hours of the day at which expired files are deleted, written as RocketMQ does: {@code "04"} or
 * {@code "04;16"}. Immutable.
 */
public final class DeleteWhen {

    private final BitSet hours;
    private final String text;

    private DeleteWhen(BitSet hours, String text) {
        this.hours = hours;
        this.text = text;
    }

    /**
     * Parses {@code "HH"} or {@code "HH;HH;..."} with hours 0 to 23.
     *
     * @throws IllegalArgumentException naming the bad part
     */
    public static DeleteWhen parse(String text) {
        String error = check(text);
        if (error != null) {
            throw new IllegalArgumentException(error);
        }
        BitSet hours = new BitSet(24);
        for (String part : text.split(";")) {
            hours.set(Integer.parseInt(part.trim()));
        }
        return new DeleteWhen(hours, text);
    }

    /** Null when {@code text} is valid, else a sentence saying what is wrong. */
    public static String check(String text) {
        if (text == null || text.isBlank()) {
            return "deleteWhen is empty; give the hour(s) of the day to delete expired files, e.g. \"04\" or \"04;16\".";
        }
        for (String part : text.split(";")) {
            String hour = part.trim();
            int value;
            try {
                value = Integer.parseInt(hour);
            } catch (NumberFormatException e) {
                return "deleteWhen \"" + text + "\" contains \"" + hour
                        + "\", which is not an hour; use hours 00 to 23 separated by ';', e.g. \"04;16\".";
            }
            if (value < 0 || value > 23) {
                return "deleteWhen \"" + text + "\" contains hour " + value + "; hours run from 00 to 23.";
            }
        }
        return null;
    }

    public boolean matches(int hourOfDay) {
        return hours.get(hourOfDay);
    }

    @Override
    public String toString() {
        return text;
    }
}
