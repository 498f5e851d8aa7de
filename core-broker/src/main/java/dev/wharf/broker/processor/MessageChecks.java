package dev.wharf.broker.processor;

import dev.wharf.common.message.BodyInflater;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.common.message.MessageSysFlag;

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
     * Checks what a compressed body inflates to, without keeping the output: consumers inflate every body they
     * get, so a small body that expands beyond maxMessageSize (a "zip bomb") must not be stored.
     */
    static String checkCompressedBody(byte[] body, int sysFlag, int maxMessageSize) {
        if (!MessageSysFlag.isZlibCompressed(sysFlag)) {
            return "The message body is compressed with " + MessageSysFlag.compressionName(sysFlag) + " (sysFlag "
                    + sysFlag + "); Wharf stores only zlib-compressed bodies, which every Wharf and RocketMQ consumer"
                    + " can read. Use zlib, the RocketMQ client's default (compressType ZLIB, system property"
                    + " rocketmq.message.compressType), or send the body uncompressed.";
        }
        int inflated = BodyInflater.inflatedLength(body, maxMessageSize);
        if (inflated == BodyInflater.TOO_LARGE) {
            return "The compressed message body (" + body.length + " bytes) inflates to more than " + maxMessageSize
                    + " bytes; this broker accepts at most " + maxMessageSize + " bytes decompressed (maxMessageSize)."
                    + " Send a smaller body, or raise maxMessageSize on the broker and the consumers' clients.";
        }
        if (inflated == BodyInflater.CORRUPT) {
            return "The message is flagged compressed but its body (" + body.length + " bytes) is not a complete"
                    + " zlib stream, so no consumer could read it. Send it compressed with java.util.zip.Deflater"
                    + " (zlib format), or without the compressed flag.";
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
