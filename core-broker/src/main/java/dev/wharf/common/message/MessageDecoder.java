package dev.wharf.common.message;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Encodes and decodes the parts of a stored record that every side needs: the properties string and whole
 * records into {@link MessageExt}. The put path encodes records in the store; this class only reads them.
 */
public final class MessageDecoder {

    /** Separates a property key from its value. */
    public static final char NAME_VALUE_SEPARATOR = '\u0001';
    /** Ends a property. */
    public static final char PROPERTY_SEPARATOR = '\u0002';
    /** The most {@link #decode} inflates a compressed body to: the default maxMessageSize of broker and client. */
    public static final int DEFAULT_MAX_INFLATED_SIZE = 4 * 1024 * 1024;

    private MessageDecoder() {
    }

    /**
     * Checks that no key or value contains a separator.
     *
     * @return null when the properties are encodable, else a sentence naming the bad key
     */
    public static String checkProperties(Map<String, String> properties) {
        if (properties == null) {
            return null;
        }
        for (Map.Entry<String, String> e : properties.entrySet()) {
            String key = e.getKey();
            String value = e.getValue();
            if (key == null || key.isEmpty()) {
                return "A message property has an empty name; give every property a name.";
            }
            if (value == null) {
                return "The message property \"" + key + "\" has a null value; remove it or give it a value.";
            }
            if (containsSeparator(key)) {
                return "The message property name \"" + printable(key)
                        + "\" contains \\u0001 or \\u0002, which the store uses as separators; remove them.";
            }
            if (containsSeparator(value)) {
                return "The value of message property \"" + key
                        + "\" contains \\u0001 or \\u0002, which the store uses as separators; remove or encode them.";
            }
        }
        return null;
    }

    /**
     * Checks an encoded properties string as a peer sent it: every property is {@code key\u0001value\u0002} with a
     * non-empty key and exactly one {@code \u0001}, so a separator inside a key or value shows up as a malformed
     * property.
     *
     * @return null when well formed, else a sentence naming the property
     */
    public static String checkEncodedProperties(String encoded) {
        if (encoded == null) {
            return null;
        }
        int start = 0;
        int length = encoded.length();
        while (start < length) {
            int end = propertyEnd(encoded, start);
            int sep = separatorIn(encoded, start, end);
            if (sep < 0) {
                return "The message property \"" + shorten(encoded.substring(start, end)) + "\" has no value"
                        + " separator; property names and values must not contain \\u0001 or \\u0002.";
            }
            if (sep == start) {
                return "A message property has an empty name; give every property a name.";
            }
            int second = encoded.indexOf(NAME_VALUE_SEPARATOR, sep + 1);
            if (second >= 0 && second < end) {
                return "The value of message property \"" + shorten(encoded.substring(start, sep))
                        + "\" contains \\u0001 or \\u0002, which the store uses as separators; remove or encode them.";
            }
            start = end + 1;
        }
        return null;
    }

    /** Where the property starting at {@code start} ends: its {@code \u0002}, or the end of the string. */
    private static int propertyEnd(String encoded, int start) {
        int end = encoded.indexOf(PROPERTY_SEPARATOR, start);
        return end < 0 ? encoded.length() : end;
    }

    /** The first {@code \u0001} of the property in {@code [start, end)}, or -1 when it has none. */
    private static int separatorIn(String encoded, int start, int end) {
        int sep = encoded.indexOf(NAME_VALUE_SEPARATOR, start);
        return sep >= 0 && sep < end ? sep : -1;
    }

    /** Bytes of the string in UTF-8, counted without encoding it. */
    public static int utf8Length(String s) {
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
        String p = printable(s);
        return p.length() > 40 ? p.substring(0, 40) + "..." : p;
    }

    /** Encodes properties as {@code key\u0001value\u0002...}; callers check them first with {@link #checkProperties}. */
    public static String encodeProperties(Map<String, String> properties) {
        if (properties == null || properties.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(properties.size() * 24);
        for (Map.Entry<String, String> e : properties.entrySet()) {
            sb.append(e.getKey()).append(NAME_VALUE_SEPARATOR).append(e.getValue()).append(PROPERTY_SEPARATOR);
        }
        return sb.toString();
    }

    public static Map<String, String> decodeProperties(String encoded) {
        Map<String, String> map = new HashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return map;
        }
        int start = 0;
        int length = encoded.length();
        while (start < length) {
            int end = propertyEnd(encoded, start);
            int sep = separatorIn(encoded, start, end);
            if (sep > start) {
                map.put(encoded.substring(start, sep), encoded.substring(sep + 1, end));
            }
            start = end + 1;
        }
        return map;
    }

    /** Reads one property straight from an encoded properties string, without building a map. */
    public static String findProperty(String encoded, String key) {
        if (encoded == null) {
            return null;
        }
        int from = 0;
        int length = encoded.length();
        while (from < length) {
            int end = propertyEnd(encoded, from);
            int sep = separatorIn(encoded, from, end);
            if (sep - from == key.length() && encoded.startsWith(key, from)) {
                return encoded.substring(sep + 1, end);
            }
            from = end + 1;
        }
        return null;
    }

    public static int crc32(byte[] body) {
        if (body == null || body.length == 0) {
            return 0;
        }
        CRC32 crc = new CRC32();
        crc.update(body, 0, body.length);
        return (int) crc.getValue();
    }

    public static int crc32(ByteBuffer buffer, int offset, int length) {
        if (length == 0) {
            return 0;
        }
        CRC32 crc = new CRC32();
        ByteBuffer slice = buffer.duplicate();
        slice.limit(offset + length).position(offset);
        crc.update(slice);
        return (int) crc.getValue();
    }

    /**
     * Decodes one whole record starting at {@code buffer.position()}; the position is advanced past it.
     *
     * @param readBody whether to copy the body
     * @param inflate  whether to decompress a compressed body (clears the compressed flag), up to
     *                 {@link #DEFAULT_MAX_INFLATED_SIZE} bytes; a body that inflates beyond it or is corrupt throws
     *                 {@link BodyInflater.BodyInflateException}
     * @return the message, or null when the buffer does not start with a well-formed message record
     */
    public static MessageExt decode(ByteBuffer buffer, boolean readBody, boolean inflate) {
        int start = buffer.position();
        if (buffer.remaining() < MessageRecord.BODY_OFFSET) {
            return null;
        }
        int totalSize = buffer.getInt(start + MessageRecord.TOTAL_SIZE_OFFSET);
        int magic = buffer.getInt(start + MessageRecord.MAGIC_CODE_OFFSET);
        if (magic != MessageRecord.MESSAGE_MAGIC_CODE || totalSize < MessageRecord.BODY_OFFSET + 3
                || totalSize > buffer.remaining()) {
            return null;
        }
        MessageExt msg = new MessageExt();
        msg.setStoreSize(totalSize);
        msg.setBodyCRC(buffer.getInt(start + MessageRecord.BODY_CRC_OFFSET));
        msg.setQueueId(buffer.getInt(start + MessageRecord.QUEUE_ID_OFFSET));
        msg.setFlag(buffer.getInt(start + MessageRecord.FLAG_OFFSET));
        msg.setQueueOffset(buffer.getLong(start + MessageRecord.QUEUE_OFFSET_OFFSET));
        msg.setCommitLogOffset(buffer.getLong(start + MessageRecord.PHYSICAL_OFFSET_OFFSET));
        int sysFlag = buffer.getInt(start + MessageRecord.SYS_FLAG_OFFSET);
        msg.setBornTimestamp(buffer.getLong(start + MessageRecord.BORN_TIMESTAMP_OFFSET));
        msg.setBornHost(buffer.getLong(start + MessageRecord.BORN_HOST_OFFSET));
        msg.setStoreTimestamp(buffer.getLong(start + MessageRecord.STORE_TIMESTAMP_OFFSET));
        msg.setStoreHost(buffer.getLong(start + MessageRecord.STORE_HOST_OFFSET));
        msg.setReconsumeTimes(buffer.getInt(start + MessageRecord.RECONSUME_TIMES_OFFSET));
        msg.setPreparedTransactionOffset(buffer.getLong(start + MessageRecord.PREPARED_TRANSACTION_OFFSET_OFFSET));
        int bodyLength = buffer.getInt(start + MessageRecord.BODY_LENGTH_OFFSET);
        if (bodyLength < 0 || MessageRecord.totalSize(bodyLength, 0, 0) > totalSize) {
            return null;
        }
        if (readBody) {
            byte[] body = new byte[bodyLength];
            buffer.get(start + MessageRecord.BODY_OFFSET, body);
            if (inflate && (sysFlag & MessageSysFlag.COMPRESSED) != 0) {
                if (!MessageSysFlag.isZlibCompressed(sysFlag)) {
                    throw new BodyInflater.BodyInflateException(false, "the body is compressed with "
                            + MessageSysFlag.compressionName(sysFlag) + ", which Wharf cannot inflate (zlib only)");
                }
                body = inflate(body);
                sysFlag = MessageSysFlag.withoutCompression(sysFlag);
            }
            msg.setBody(body);
        }
        msg.setSysFlag(sysFlag);
        int topicLength = buffer.get(start + MessageRecord.topicLengthOffset(bodyLength)) & 0xFF;
        int propsLengthAt = MessageRecord.propertiesLengthOffset(bodyLength, topicLength);
        if (propsLengthAt + 2 > totalSize) {
            return null;
        }
        byte[] topic = new byte[topicLength];
        buffer.get(start + MessageRecord.topicLengthOffset(bodyLength) + 1, topic);
        msg.setTopic(new String(topic, StandardCharsets.UTF_8));
        int propsLength = buffer.getShort(start + propsLengthAt) & 0xFFFF;
        if (propsLengthAt + 2 + propsLength != totalSize) {
            return null;
        }
        if (propsLength > 0) {
            byte[] props = new byte[propsLength];
            buffer.get(start + propsLengthAt + 2, props);
            msg.setProperties(decodeProperties(new String(props, StandardCharsets.UTF_8)));
        }
        buffer.position(start + totalSize);
        return msg;
    }

    /**
     * Decodes every record of a buffer holding whole records back to back (a pull result); a bad record is
     * left out (see {@link MessageBatchDecoder}, which also says what was wrong).
     */
    public static List<MessageExt> decodeAll(ByteBuffer buffer, boolean readBody, boolean inflate) {
        return MessageBatchDecoder.decode(buffer, readBody, inflate).messages();
    }

    public static byte[] deflate(byte[] body, int level) {
        Deflater deflater = new Deflater(level);
        try {
            deflater.setInput(body);
            deflater.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, body.length / 2));
            byte[] chunk = new byte[8192];
            while (!deflater.finished()) {
                int n = deflater.deflate(chunk);
                out.write(chunk, 0, n);
            }
            return out.toByteArray();
        } finally {
            deflater.end();
        }
    }

    /**
     * Inflates a compressed body up to {@link #DEFAULT_MAX_INFLATED_SIZE} bytes (see {@link BodyInflater}; clients
     * inflate with their own limit, {@code ClientConfig.maxMessageSize}).
     *
     * @throws BodyInflater.BodyInflateException the body is corrupt or inflates beyond the limit
     */
    public static byte[] inflate(byte[] compressed) {
        return BodyInflater.inflate(compressed, DEFAULT_MAX_INFLATED_SIZE);
    }

    private static boolean containsSeparator(String s) {
        return s.indexOf(NAME_VALUE_SEPARATOR) >= 0 || s.indexOf(PROPERTY_SEPARATOR) >= 0;
    }

    private static String printable(String s) {
        return s.replace("\u0001", "\\u0001").replace("\u0002", "\\u0002");
    }
}
