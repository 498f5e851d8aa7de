package dev.wharf.broker.processor;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageRecord;

/** Checks of what a client sends, each returning null when fine or a sentence naming the problem. */
final class MessageChecks {

    private MessageChecks() {
    }

    static String checkBodySize(int bodyLength, int maxMessageSize) {
        if (bodyLength > maxMessageSize) {
            return "The message body is " + bodyLength + " bytes; this broker accepts at most " + maxMessageSize
                    + " bytes (maxMessageSize). Send a smaller body, compress it, or raise maxMessageSize on the"
                    + " broker and the client.";
        }
        return null;
    }

    /**
     * Checks an encoded properties string ({@code key\u0001value\u0002...}) as the client sent it: every
     * property has a name and exactly one separator, and the whole fits the record's 2-byte length.
     */
    static String checkEncodedProperties(String encoded) {
        if (encoded == null || encoded.isEmpty()) {
            return null;
        }
        int bytes = utf8Length(encoded);
        if (bytes > MessageRecord.MAX_PROPERTIES_LENGTH) {
            return "The message properties take " + bytes + " bytes encoded; the limit is "
                    + MessageRecord.MAX_PROPERTIES_LENGTH + ". Use fewer or shorter properties (large data belongs"
                    + " in the body).";
        }
        int start = 0;
        int length = encoded.length();
        while (start < length) {
            int end = encoded.indexOf(MessageDecoder.PROPERTY_SEPARATOR, start);
            if (end < 0) {
                end = length;
            }
            int sep = encoded.indexOf(MessageDecoder.NAME_VALUE_SEPARATOR, start);
            if (sep < 0 || sep >= end) {
                return "The message property \"" + shorten(encoded.substring(start, end)) + "\" has no value"
                        + " separator; property names and values must not contain \\u0001 or \\u0002.";
            }
            if (sep == start) {
                return "A message property has an empty name; give every property a name.";
            }
            int second = encoded.indexOf(MessageDecoder.NAME_VALUE_SEPARATOR, sep + 1);
            if (second >= 0 && second < end) {
                return "The value of message property \"" + shorten(encoded.substring(start, sep))
                        + "\" contains \\u0001 or \\u0002, which the broker uses as separators; remove or encode them.";
            }
            start = end + 1;
        }
        return null;
    }

    /** Bytes of the string in UTF-8, without encoding it. */
    static int utf8Length(String s) {
        int bytes = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                bytes++;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }

    private static String shorten(String s) {
        String p = s.replace("\u0001", "\\u0001").replace("\u0002", "\\u0002");
        return p.length() > 40 ? p.substring(0, 40) + "..." : p;
    }
}
