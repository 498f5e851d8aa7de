package dev.wharf.broker.ack.persist;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * The snapshot of every acknowledgement state, written to {@code config/ackState.json}: the state after
 * every ack-log record below {@code ackLogOffset} (and possibly some above it: replaying those again is
 * harmless). Leases are not saved; a message leased when the snapshot was taken counts as delivered.
 *
 * @param version      format version (1)
 * @param ackLogOffset the ack-log queue offset replay starts at
 */
public record AckStateDocument(int version, long ackLogOffset, List<GroupState> groups) {

    public static final int CURRENT_VERSION = 1;

    /**
     * One group on one topic.
     *
     * @param maxReconsumeTimes the value the group's pops asked for last; -1 = the group's retryMaxTimes
     */
    public record GroupState(String group, String topic, int maxReconsumeTimes, List<QueueState> queues) {
    }

    /**
     * One queue.
     *
     * @param ackOffset        every offset below it is done
     * @param doneWordBase     queue offset of bit 0 of {@code doneBits}
     * @param doneBits         done marks at and above ackOffset, 64-bit words big-endian (base64 in JSON)
     * @param deliveredOffsets offsets delivered before and not done
     * @param deliveredCounts  their counted deliveries, in the same order
     */
    public record QueueState(int queueId, long ackOffset, long doneWordBase, byte[] doneBits, long[] deliveredOffsets,
                             int[] deliveredCounts, long expired, long deadLettered, long skipped) {
    }

    /** 64-bit words as bytes. */
    public static byte[] wordsToBytes(long[] words) {
        ByteBuffer out = ByteBuffer.allocate(words.length * Long.BYTES);
        for (long w : words) {
            out.putLong(w);
        }
        return out.array();
    }

    /**
     * Bytes back to 64-bit words.
     *
     * @throws IllegalArgumentException when the length is not a multiple of 8
     */
    public static long[] bytesToWords(byte[] bytes) {
        if (bytes == null) {
            return new long[0];
        }
        if (bytes.length % Long.BYTES != 0) {
            throw new IllegalArgumentException("done marks of " + bytes.length + " bytes are not whole 64-bit words");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes);
        long[] words = new long[bytes.length / Long.BYTES];
        for (int i = 0; i < words.length; i++) {
            words[i] = in.getLong();
        }
        return words;
    }
}
