package dev.wharf.broker.ack.persist;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Encodes and decodes {@link AckLogRecord}s in the {@link AckLogLayout}. Stateless. */
public final class AckLogCodec {

    private AckLogCodec() {
    }

    public static byte[] encode(AckLogRecord record) {
        byte[] group = record.group().getBytes(StandardCharsets.UTF_8);
        byte[] topic = record.topic().getBytes(StandardCharsets.UTF_8);
        if (group.length > 255 || topic.length > 255) {
            throw new IllegalArgumentException("group and topic names of the ack log are at most 255 bytes");
        }
        boolean withValues = record.kind().hasValues;
        int count = record.offsets().length;
        ByteBuffer out = ByteBuffer.allocate(AckLogLayout.size(group.length, topic.length, count, withValues));
        out.put(AckLogLayout.VERSION);
        out.put(record.kind().code);
        out.putInt(record.queueId());
        out.putLong(record.argument());
        out.putInt(count);
        out.put((byte) group.length);
        out.put(group);
        out.put((byte) topic.length);
        out.put(topic);
        for (int i = 0; i < count; i++) {
            out.putLong(record.offsets()[i]);
            if (withValues) {
                out.putInt(record.values()[i]);
            }
        }
        return out.array();
    }

    /**
     * Decodes one record from {@code length} bytes at {@code from}.
     *
     * @return the record, or null when the bytes are not a record of this version
     */
    public static AckLogRecord decode(ByteBuffer buffer, int from, int length) {
        if (length < AckLogLayout.GROUP_OFFSET + 1
                || buffer.get(from + AckLogLayout.VERSION_OFFSET) != AckLogLayout.VERSION) {
            return null;
        }
        AckLogRecord.Kind kind = AckLogRecord.Kind.of(buffer.get(from + AckLogLayout.KIND_OFFSET));
        if (kind == null) {
            return null;
        }
        int queueId = buffer.getInt(from + AckLogLayout.QUEUE_ID_OFFSET);
        long argument = buffer.getLong(from + AckLogLayout.ARGUMENT_OFFSET);
        int count = buffer.getInt(from + AckLogLayout.COUNT_OFFSET);
        int groupLength = buffer.get(from + AckLogLayout.GROUP_LENGTH_OFFSET) & 0xFF;
        int topicLengthAt = AckLogLayout.topicLengthOffset(groupLength);
        if (count < 0 || topicLengthAt + 1 > length) {
            return null;
        }
        int topicLength = buffer.get(from + topicLengthAt) & 0xFF;
        if (AckLogLayout.size(groupLength, topicLength, count, kind.hasValues) != length) {
            return null;
        }
        String group = string(buffer, from + AckLogLayout.GROUP_OFFSET, groupLength);
        String topic = string(buffer, from + topicLengthAt + 1, topicLength);
        long[] offsets = new long[count];
        int[] values = kind.hasValues ? new int[count] : null;
        int at = from + AckLogLayout.entriesOffset(groupLength, topicLength);
        for (int i = 0; i < count; i++) {
            offsets[i] = buffer.getLong(at);
            at += 8;
            if (values != null) {
                values[i] = buffer.getInt(at);
                at += 4;
            }
        }
        return new AckLogRecord(kind, group, topic, queueId, argument, offsets, values);
    }

    private static String string(ByteBuffer buffer, int at, int length) {
        byte[] bytes = new byte[length];
        buffer.get(at, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
