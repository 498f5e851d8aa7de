package dev.wharf.broker.ack.persist;

import java.util.Arrays;
import java.util.Objects;

/**
 * One change of acknowledgement state, as written to the ack log: one record per request and queue, never
 * one per message. Every kind sets absolute values (a done mark, a delivery count), so replaying a record
 * whose effect a snapshot already holds changes nothing.
 *
 * @param kind     what changed
 * @param group    consumer group
 * @param topic    topic
 * @param queueId  queue
 * @param argument INIT: the ack offset the state starts at; DONE: the {@link DoneReason} code; else 0
 * @param offsets  the queue offsets concerned (empty for INIT and DELETE)
 * @param values   POP and DELIVERIES: each offset's counted deliveries after the change; empty otherwise
 */
public record AckLogRecord(Kind kind, String group, String topic, int queueId, long argument, long[] offsets,
                           int[] values) {

    /** Kinds of record, with their code in the log. */
    public enum Kind {
        /** A queue state was created with ackOffset = argument. */
        INIT(1, false),
        /** Messages were handed out; values = their delivery counts (so a crash counts them as delivered). */
        POP(2, true),
        /** Messages were acknowledged. */
        ACK(3, false),
        /** Delivery counts changed (a delivery declared not to count). */
        DELIVERIES(4, true),
        /** Messages were finished by the broker (reason in argument). */
        DONE(5, false),
        /** The group's state for the topic was deleted (queueId is -1). */
        DELETE(6, false);

        final byte code;
        final boolean hasValues;

        Kind(int code, boolean hasValues) {
            this.code = (byte) code;
            this.hasValues = hasValues;
        }

        static Kind of(byte code) {
            for (Kind k : values()) {
                if (k.code == code) {
                    return k;
                }
            }
            return null;
        }
    }

    /** Why the broker marked messages done ({@link Kind#DONE}'s argument). */
    public enum DoneReason {
        /** Their JMSExpiration passed before delivery. */
        EXPIRED,
        /** They were copied to the dead-letter queue. */
        DEAD_LETTERED,
        /** The subscription did not match them and unmatched messages are skipped. */
        SKIPPED;

        public static DoneReason of(long code) {
            return code >= 0 && code < values().length ? values()[(int) code] : null;
        }
    }

    public AckLogRecord {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(topic, "topic");
        offsets = offsets == null ? new long[0] : offsets;
        values = values == null ? new int[0] : values;
        if (kind.hasValues && values.length != offsets.length) {
            throw new IllegalArgumentException(kind + " needs one value per offset: " + offsets.length + " offsets, "
                    + values.length + " values");
        }
    }

    public static AckLogRecord init(String group, String topic, int queueId, long ackOffset) {
        return new AckLogRecord(Kind.INIT, group, topic, queueId, ackOffset, null, null);
    }

    public static AckLogRecord pop(String group, String topic, int queueId, long[] offsets, int[] deliveries) {
        return new AckLogRecord(Kind.POP, group, topic, queueId, 0, offsets, deliveries);
    }

    public static AckLogRecord ack(String group, String topic, int queueId, long[] offsets) {
        return new AckLogRecord(Kind.ACK, group, topic, queueId, 0, offsets, null);
    }

    public static AckLogRecord deliveries(String group, String topic, int queueId, long[] offsets, int[] counts) {
        return new AckLogRecord(Kind.DELIVERIES, group, topic, queueId, 0, offsets, counts);
    }

    public static AckLogRecord done(String group, String topic, int queueId, DoneReason reason, long[] offsets) {
        return new AckLogRecord(Kind.DONE, group, topic, queueId, reason.ordinal(), offsets, null);
    }

    public static AckLogRecord delete(String group, String topic) {
        return new AckLogRecord(Kind.DELETE, group, topic, -1, 0, null, null);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AckLogRecord r && kind == r.kind && queueId == r.queueId && argument == r.argument
                && group.equals(r.group) && topic.equals(r.topic) && Arrays.equals(offsets, r.offsets)
                && Arrays.equals(values, r.values);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, group, topic, queueId, argument, Arrays.hashCode(offsets), Arrays.hashCode(values));
    }

    @Override
    public String toString() {
        return kind + "{" + group + "@" + topic + "#" + queueId + ", arg=" + argument + ", offsets="
                + Arrays.toString(offsets) + (values.length > 0 ? ", values=" + Arrays.toString(values) : "") + "}";
    }
}
