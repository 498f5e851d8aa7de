package dev.wharf.server.admin;

import dev.wharf.client.admin.AdminClient;
import dev.wharf.server.cli.CliException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * Where {@code reset-offset --to} moves a group: {@code earliest}, {@code latest}, or the first message stored at
 * or after a time given as ISO-8601 with a zone ({@code 2026-11-29T10:00:00Z}, {@code 2026-11-29T11:00:00+01:00})
 * or as epoch milliseconds.
 *
 * @param value    what {@link AdminClient#resetOffset} takes: {@link AdminClient#EARLIEST}, {@link AdminClient#LATEST}
 *                 or epoch milliseconds
 * @param describe the target in words, for the output
 */
record OffsetTarget(long value, String describe) {

    static OffsetTarget parse(String text) throws CliException {
        String t = text == null ? "" : text.trim();
        switch (t.toLowerCase(Locale.ROOT)) {
            case "earliest":
                return new OffsetTarget(AdminClient.EARLIEST, "earliest");
            case "latest":
                return new OffsetTarget(AdminClient.LATEST, "latest");
            default:
                break;
        }
        if (!t.isEmpty() && t.chars().allMatch(Character::isDigit)) {
            try {
                long millis = Long.parseLong(t);
                return new OffsetTarget(millis, Texts.time(millis));
            } catch (NumberFormatException e) {
                throw bad(t);
            }
        }
        try {
            long millis = Instant.parse(t).toEpochMilli();
            return new OffsetTarget(millis, Texts.time(millis));
        } catch (DateTimeParseException e) {
            // not in UTC form; maybe with an offset
        }
        try {
            long millis = OffsetDateTime.parse(t).toInstant().toEpochMilli();
            return new OffsetTarget(millis, Texts.time(millis));
        } catch (DateTimeParseException e) {
            throw bad(t);
        }
    }

    private static CliException bad(String text) {
        return CliException.usage("--to \"" + text + "\" is not earliest, latest, a time with a zone such as "
                + "2026-11-29T10:00:00Z, or epoch milliseconds such as 1795946400000.");
    }
}
