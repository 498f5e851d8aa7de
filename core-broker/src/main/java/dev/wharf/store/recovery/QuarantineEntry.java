package dev.wharf.store.recovery;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageRecord;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One range of the commit log that could not be served: where it is, why, and what the damaged bytes still
 * tell (topic, queue, queue offset, unique message id) when their header is readable. A line of the
 * quarantine report.
 *
 * @param offset      commit-log offset of the first damaged byte (a record start)
 * @param length      bytes skipped
 * @param file        the commit-log file name
 * @param filePosition position of {@code offset} inside that file
 * @param reason      what was wrong, for a person
 * @param detectedBy  {@code recovery}, {@code read} or {@code load}
 * @param topic       topic of the damaged record, or null when unreadable
 * @param queueId     queue id, or -1 when unreadable
 * @param queueOffset queue offset, or -1 when unreadable
 * @param uniqKey     the producer's unique message id, or null when unreadable
 * @param endOfLog    the range was at the end of the log, which now ends at {@code offset}: new records will be
 *                    written there, so it is reported but not skipped
 */
public record QuarantineEntry(long offset, long length, String file, long filePosition, String reason,
        String detectedBy, String topic, int queueId, long queueOffset, String uniqKey, boolean endOfLog) {

    /**
     * An entry for {@code [offset, offset + length)} whose first bytes are at {@code pos} of {@code buffer}
     * (which is readable up to {@code limit}), reading what the header still tells.
     *
     * @param filePosition where {@code offset} lies in {@code file}
     */
    public static QuarantineEntry describe(ByteBuffer buffer, int pos, int limit, long offset, long length,
            String file, long filePosition, String reason, String detectedBy) {
        Header h = Header.read(buffer, pos, limit);
        return new QuarantineEntry(offset, length, file, filePosition, reason, detectedBy, h.topic, h.queueId,
                h.queueOffset, h.uniqKey, false);
    }

    /** One JSON object on one line. */
    public String toJson(long timeMillis) {
        StringBuilder b = new StringBuilder(256);
        b.append("{\"time\":").append(timeMillis)
                .append(",\"offset\":").append(offset)
                .append(",\"length\":").append(length)
                .append(",\"file\":");
        quote(b, file);
        b.append(",\"filePosition\":").append(filePosition).append(",\"reason\":");
        quote(b, reason);
        b.append(",\"detectedBy\":");
        quote(b, detectedBy);
        b.append(",\"endOfLog\":").append(endOfLog);
        if (topic != null) {
            b.append(",\"topic\":");
            quote(b, topic);
        }
        if (queueId >= 0) {
            b.append(",\"queueId\":").append(queueId);
        }
        if (queueOffset >= 0) {
            b.append(",\"queueOffset\":").append(queueOffset);
        }
        if (uniqKey != null) {
            b.append(",\"uniqKey\":");
            quote(b, uniqKey);
        }
        return b.append('}').toString();
    }

    /** A short form for a log line. */
    public String summary() {
        return "commit-log [" + offset + ", " + (offset + length) + ") (" + length + " bytes, file " + file + " at "
                + filePosition + "): " + reason + (topic == null ? "" : "; topic " + topic + ", queue " + queueId
                + ", queue offset " + queueOffset) + (uniqKey == null ? "" : ", message id " + uniqKey);
    }

    private static void quote(StringBuilder b, String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        b.append(String.format("\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }

    /** What a damaged record's header still tells; every field may be unreadable. */
    private record Header(String topic, int queueId, long queueOffset, String uniqKey) {

        static final Header UNREADABLE = new Header(null, -1, -1, null);

        static Header read(ByteBuffer buffer, int pos, int limit) {
            int room = limit - pos;
            if (room < MessageRecord.BODY_OFFSET
                    || buffer.getInt(pos + MessageRecord.MAGIC_CODE_OFFSET) != MessageRecord.MESSAGE_MAGIC_CODE) {
                return UNREADABLE;
            }
            int totalSize = buffer.getInt(pos + MessageRecord.TOTAL_SIZE_OFFSET);
            int bodyLength = buffer.getInt(pos + MessageRecord.BODY_LENGTH_OFFSET);
            int queueId = buffer.getInt(pos + MessageRecord.QUEUE_ID_OFFSET);
            long queueOffset = buffer.getLong(pos + MessageRecord.QUEUE_OFFSET_OFFSET);
            if (queueId < 0 || queueOffset < 0) {
                queueId = -1;
                queueOffset = -1;
            }
            if (totalSize <= 0 || totalSize > room || bodyLength < 0
                    || MessageRecord.totalSize(bodyLength, 0, 0) > totalSize) {
                return new Header(null, queueId, queueOffset, null);
            }
            int topicAt = pos + MessageRecord.topicLengthOffset(bodyLength);
            int topicLength = buffer.get(topicAt) & 0xFF;
            int propsAt = MessageRecord.propertiesLengthOffset(bodyLength, topicLength);
            if (topicLength == 0 || propsAt + 2 > totalSize) {
                return new Header(null, queueId, queueOffset, null);
            }
            String topic = printable(string(buffer, topicAt + 1, topicLength));
            int propsLength = buffer.getShort(pos + propsAt) & 0xFFFF;
            String uniqKey = null;
            if (propsAt + 2 + propsLength <= totalSize) {
                String key = MessageDecoder.findProperty(string(buffer, pos + propsAt + 2, propsLength),
                        MessageProperties.UNIQUE_CLIENT_MESSAGE_ID);
                uniqKey = key == null ? null : printable(key);
            }
            return new Header(topic, queueId, queueOffset, uniqKey);
        }

        private static String string(ByteBuffer buffer, int at, int length) {
            byte[] bytes = new byte[length];
            buffer.get(at, bytes);
            return new String(bytes, StandardCharsets.UTF_8);
        }

        /** Damaged text stays readable in a report: control characters are dropped. */
        private static String printable(String s) {
            StringBuilder b = new StringBuilder(s.length());
            for (int i = 0; i < s.length() && b.length() < 256; i++) {
                char c = s.charAt(i);
                b.append(Character.isISOControl(c) ? '?' : c);
            }
            return b.toString();
        }
    }
}
