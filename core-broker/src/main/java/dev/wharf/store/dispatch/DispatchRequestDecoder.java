package dev.wharf.store.dispatch;

import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.common.message.Tags;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Turns an intact commit-log record into a {@link DispatchRequest}, applying the dispatch rules: only records
 * whose transaction type is NOT_TYPE or COMMIT_TYPE are dispatched; the tag slot holds
 * {@code Tags.hash(TAGS)}, or the DELIVER_TIME_MS property for the schedule topic. Stateless.
 */
public final class DispatchRequestDecoder {

    private DispatchRequestDecoder() {
    }

    /** Whether a record with this SYSFLAG gets consume-queue and index entries. */
    public static boolean isDispatchable(int sysFlag) {
        int type = MessageSysFlag.transactionType(sysFlag);
        return type == MessageSysFlag.TRANSACTION_NOT_TYPE || type == MessageSysFlag.TRANSACTION_COMMIT_TYPE;
    }

    /**
     * Decodes the (already validated) record at {@code pos}.
     *
     * @return the request, or null when the record is not dispatched (prepared or rolled-back transaction)
     */
    public static DispatchRequest decode(ByteBuffer buffer, int pos, long commitLogOffset) {
        int sysFlag = buffer.getInt(pos + MessageRecord.SYS_FLAG_OFFSET);
        if (!isDispatchable(sysFlag)) {
            return null;
        }
        int totalSize = buffer.getInt(pos + MessageRecord.TOTAL_SIZE_OFFSET);
        int queueId = buffer.getInt(pos + MessageRecord.QUEUE_ID_OFFSET);
        long queueOffset = buffer.getLong(pos + MessageRecord.QUEUE_OFFSET_OFFSET);
        long storeTimestamp = buffer.getLong(pos + MessageRecord.STORE_TIMESTAMP_OFFSET);
        long preparedTransactionOffset = buffer.getLong(pos + MessageRecord.PREPARED_TRANSACTION_OFFSET_OFFSET);
        int bodyLength = buffer.getInt(pos + MessageRecord.BODY_LENGTH_OFFSET);
        int topicAt = pos + MessageRecord.topicLengthOffset(bodyLength);
        int topicLength = buffer.get(topicAt) & 0xFF;
        String topic = readString(buffer, topicAt + 1, topicLength);
        int propertiesAt = pos + MessageRecord.propertiesLengthOffset(bodyLength, topicLength);
        int propertiesLength = buffer.getShort(propertiesAt) & 0xFFFF;
        Map<String, String> properties =
                MessageDecoder.decodeProperties(readString(buffer, propertiesAt + 2, propertiesLength));
        String keys = properties.get(MessageProperties.KEYS);
        String uniqKey = properties.get(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID);
        long tagsCode = tagsCode(topic, properties, storeTimestamp);
        return new DispatchRequest(topic, queueId, commitLogOffset, totalSize, tagsCode, storeTimestamp, queueOffset,
                keys, uniqKey, sysFlag, preparedTransactionOffset, properties);
    }

    /** The consume-queue tag slot for a message of {@code topic} with these properties. */
    public static long tagsCode(String topic, Map<String, String> properties, long storeTimestamp) {
        if (SystemTopics.SCHEDULE_TOPIC.equals(topic)) {
            String deliverAt = properties.get(MessageProperties.DELIVER_TIME_MS);
            if (deliverAt != null) {
                try {
                    return Long.parseLong(deliverAt);
                } catch (NumberFormatException e) {
                    // falls through: an unreadable time makes the message due at once
                }
            }
            return storeTimestamp;
        }
        return Tags.hash(properties.get(MessageProperties.TAGS));
    }

    private static String readString(ByteBuffer buffer, int at, int length) {
        if (length == 0) {
            return "";
        }
        byte[] bytes = new byte[length];
        buffer.get(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
