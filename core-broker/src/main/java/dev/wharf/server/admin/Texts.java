package dev.wharf.server.admin;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** How admin output shows times and message bodies. */
final class Texts {

    private Texts() {
    }

    /** ISO-8601 in UTC with milliseconds (the form {@code reset-offset --to} accepts), "-" for none. */
    static String time(long epochMillis) {
        if (epochMillis <= 0) {
            return "-";
        }
        return DateTimeFormatter.ISO_INSTANT.format(Instant.ofEpochMilli(epochMillis).truncatedTo(ChronoUnit.MILLIS));
    }

    /**
     * The body as one line of text: UTF-8 with line breaks shown as \n, cut at {@code max} characters (0 = no
     * limit); a body that is not text is shown by its size.
     */
    static String body(byte[] body, int max) {
        if (body == null || body.length == 0) {
            return "";
        }
        String text = utf8(body);
        if (text == null) {
            return "<" + body.length + " bytes, not UTF-8 text>";
        }
        StringBuilder out = new StringBuilder(Math.min(text.length(), max > 0 ? max + 3 : text.length()));
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c == '\t') {
                out.append(' ');
            } else if (Character.isISOControl(c)) {
                return "<" + body.length + " bytes, not printable text>";
            } else {
                out.append(c);
            }
            if (max > 0 && out.length() >= max && i < text.length() - 1) {
                out.setLength(max);
                return out.append("...").toString();
            }
        }
        return out.toString();
    }

    private static String utf8(byte[] body) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
