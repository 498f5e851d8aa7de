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
        return MessageDecoder.checkEncodedProperties(encoded);
    }

    /** Bytes of the string in UTF-8, without encoding it. */
    static int utf8Length(String s) {
        return MessageDecoder.utf8Length(s);
    }
}
