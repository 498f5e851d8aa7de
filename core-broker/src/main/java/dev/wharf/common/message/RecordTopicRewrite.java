package dev.wharf.common.message;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A copy of a stored record (see {@link MessageRecord}) under another topic and queue id, everything else as
 * stored. The broker hands a half message to its producer's transaction check this way: RocketMQ's producers read
 * the topic from the record and expect the topic the message was sent to, not the internal half topic.
 */
public final class RecordTopicRewrite {

    private RecordTopicRewrite() {
    }

    /**
     * @param record one whole record
     * @return the rewritten record, or null when {@code record} is not a well-formed record
     * @throws IllegalArgumentException the topic is longer than the record's one-byte length allows
     */
    public static byte[] rewrite(byte[] record, String topic, int queueId) {
        byte[] topicBytes = topic.getBytes(StandardCharsets.UTF_8);
        if (topicBytes.length > 255) {
            throw new IllegalArgumentException("topic " + topic + " is longer than 255 bytes");
        }
        ByteBuffer in = ByteBuffer.wrap(record);
        if (record.length < MessageRecord.BODY_OFFSET + 3) {
            return null;
        }
        int bodyLength = in.getInt(MessageRecord.BODY_LENGTH_OFFSET);
        int topicAt = MessageRecord.topicLengthOffset(bodyLength);
        if (bodyLength < 0 || topicAt + 1 > record.length) {
            return null;
        }
        int oldTopicLength = record[topicAt] & 0xFF;
        int propertiesAt = MessageRecord.propertiesLengthOffset(bodyLength, oldTopicLength);
        if (propertiesAt + 2 > record.length) {
            return null;
        }
        int tail = record.length - propertiesAt;
        int total = topicAt + 1 + topicBytes.length + tail;
        ByteBuffer out = ByteBuffer.allocate(total);
        out.put(record, 0, topicAt);
        out.put((byte) topicBytes.length).put(topicBytes);
        out.put(record, propertiesAt, tail);
        out.putInt(MessageRecord.TOTAL_SIZE_OFFSET, total);
        out.putInt(MessageRecord.QUEUE_ID_OFFSET, queueId);
        return out.array();
    }
}
