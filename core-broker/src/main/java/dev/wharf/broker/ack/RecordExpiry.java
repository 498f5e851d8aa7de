package dev.wharf.broker.ack;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads a stored record's {@code JMSExpiration} property (epoch millis; 0 or absent = never) straight from
 * its bytes, without decoding the properties into strings: it is checked for every message a pop is about to
 * hand out. Stateless.
 */
final class RecordExpiry {

    /** The property the JMS provider stores JMSExpiration in. */
    static final String PROPERTY = "JMSExpiration";
    private static final byte[] KEY = PROPERTY.getBytes(StandardCharsets.US_ASCII);
    private static final byte NAME_VALUE = (byte) MessageDecoder.NAME_VALUE_SEPARATOR;
    private static final byte END = (byte) MessageDecoder.PROPERTY_SEPARATOR;

    private RecordExpiry() {
    }

    /**
     * The record's expiration time.
     *
     * @param record a whole stored record from its position
     * @return epoch millis, or 0 when the record has none (or it is not a number)
     */
    static long expiration(ByteBuffer record) {
        int base = record.position();
        int limit = record.limit();
        if (base + MessageRecord.BODY_OFFSET > limit) {
            return 0;
        }
        int bodyLength = record.getInt(base + MessageRecord.BODY_LENGTH_OFFSET);
        int topicLengthAt = base + MessageRecord.topicLengthOffset(bodyLength);
        if (bodyLength < 0 || topicLengthAt + 1 > limit) {
            return 0;
        }
        int propsLengthAt = base + MessageRecord.propertiesLengthOffset(bodyLength, record.get(topicLengthAt) & 0xFF);
        if (propsLengthAt + 2 > limit) {
            return 0;
        }
        int from = propsLengthAt + 2;
        int end = Math.min(limit, from + (record.getShort(propsLengthAt) & 0xFFFF));
        int at = from;
        while (at < end) {
            if (keyAt(record, at, end)) {
                return number(record, at + KEY.length + 1, end);
            }
            while (at < end && record.get(at) != END) {
                at++;
            }
            at++;
        }
        return 0;
    }

    private static boolean keyAt(ByteBuffer record, int at, int end) {
        if (at + KEY.length >= end) {
            return false;
        }
        for (int i = 0; i < KEY.length; i++) {
            if (record.get(at + i) != KEY[i]) {
                return false;
            }
        }
        return record.get(at + KEY.length) == NAME_VALUE;
    }

    private static long number(ByteBuffer record, int at, int end) {
        long value = 0;
        int digits = 0;
        for (int i = at; i < end; i++) {
            byte b = record.get(i);
            if (b == END) {
                break;
            }
            if (b < '0' || b > '9' || digits == 18) {
                return 0;
            }
            value = value * 10 + (b - '0');
            digits++;
        }
        return value;
    }
}
