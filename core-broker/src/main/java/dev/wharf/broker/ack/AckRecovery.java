package dev.wharf.broker.ack;

import dev.wharf.broker.ack.persist.AckLogRecord.DoneReason;
import dev.wharf.broker.ack.persist.AckLogRecord;
import dev.wharf.broker.ack.persist.AckStateDocument.GroupState;
import dev.wharf.broker.ack.persist.AckStateDocument.QueueState;
import dev.wharf.broker.ack.persist.AckStateDocument;
import dev.wharf.broker.ack.state.AckStateTable;
import dev.wharf.broker.ack.state.Delivery;
import dev.wharf.broker.ack.state.GroupAck;
import dev.wharf.broker.ack.state.LongList;
import dev.wharf.broker.ack.state.OffsetBitSet;
import dev.wharf.broker.ack.state.QueueAckState;
import dev.wharf.broker.ack.state.QueueAckState.FinishReason;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the live state into a snapshot document and back, and applies replayed ack-log records. Replay runs
 * before the broker accepts connections, on one thread, so it takes no locks; snapshots lock one queue at a
 * time.
 */
final class AckRecovery {

    private AckRecovery() {
    }

    /** The whole table as a document covering the ack log below {@code ackLogOffset}. */
    static AckStateDocument snapshot(AckStateTable table, long ackLogOffset) {
        List<GroupState> groups = new ArrayList<>();
        for (GroupAck g : table.all()) {
            List<QueueState> queues = new ArrayList<>();
            for (QueueAckState q : g.queues().values()) {
                q.lock.lock();
                try {
                    if (!q.isDeleted()) {
                        queues.add(snapshot(q));
                    }
                } finally {
                    q.lock.unlock();
                }
            }
            groups.add(new GroupState(g.group, g.topic, g.maxReconsumeTimes(), queues));
        }
        return new AckStateDocument(AckStateDocument.CURRENT_VERSION, ackLogOffset, groups);
    }

    private static QueueState snapshot(QueueAckState q) {
        LongList offsets = new LongList();
        List<Integer> counts = new ArrayList<>();
        for (Delivery d : q.deliveries()) {
            if (d.deliveries() > 0) {
                offsets.add(d.offset());
                counts.add(d.deliveries());
            }
        }
        int[] countArray = new int[counts.size()];
        for (int i = 0; i < countArray.length; i++) {
            countArray[i] = counts.get(i);
        }
        OffsetBitSet done = q.doneMarks();
        return new QueueState(q.queueId, done.floor(), done.wordBase(),
                AckStateDocument.wordsToBytes(done.exportWords()), offsets.toArray(), countArray, q.expired(),
                q.deadLettered(), q.skipped());
    }

    /**
     * Fills an empty table from a document.
     *
     * @throws IllegalArgumentException naming the group and queue whose entry does not fit together
     */
    static void restore(AckStateTable table, AckStateDocument doc) {
        if (doc.groups() == null) {
            return;
        }
        for (GroupState gs : doc.groups()) {
            GroupAck g = table.getOrCreate(gs.group(), gs.topic());
            g.maxReconsumeTimes(gs.maxReconsumeTimes());
            if (gs.queues() == null) {
                continue;
            }
            for (QueueState qs : gs.queues()) {
                QueueAckState q = new QueueAckState(gs.group(), gs.topic(), qs.queueId(), qs.ackOffset());
                try {
                    q.doneMarks().restore(qs.ackOffset(), qs.doneWordBase(),
                            AckStateDocument.bytesToWords(qs.doneBits()));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("the state of group " + gs.group() + " on " + gs.topic() + "#"
                            + qs.queueId() + " is damaged: " + e.getMessage(), e);
                }
                long[] offsets = qs.deliveredOffsets() == null ? new long[0] : qs.deliveredOffsets();
                int[] counts = qs.deliveredCounts() == null ? new int[0] : qs.deliveredCounts();
                for (int i = 0; i < Math.min(offsets.length, counts.length); i++) {
                    q.setDeliveries(offsets[i], counts[i]);
                }
                q.restoreCounters(qs.expired(), qs.deadLettered(), qs.skipped());
                g.putIfAbsent(q);
            }
        }
    }

    /** Applies one replayed record. Records of states that no longer exist are ignored. */
    static void apply(AckStateTable table, AckLogRecord record) {
        switch (record.kind()) {
            case INIT -> {
                GroupAck g = table.getOrCreate(record.group(), record.topic());
                if (g.queue(record.queueId()) == null) {
                    g.putIfAbsent(new QueueAckState(record.group(), record.topic(), record.queueId(),
                            record.argument()));
                }
            }
            case DELETE -> table.remove(record.group(), record.topic());
            default -> {
                QueueAckState q = table.find(record.group(), record.topic(), record.queueId());
                if (q != null) {
                    applyToQueue(q, record);
                }
            }
        }
    }

    private static void applyToQueue(QueueAckState q, AckLogRecord record) {
        long[] offsets = record.offsets();
        switch (record.kind()) {
            case POP, DELIVERIES -> {
                for (int i = 0; i < offsets.length; i++) {
                    q.setDeliveries(offsets[i], record.values()[i]);
                }
            }
            case ACK -> {
                for (long offset : offsets) {
                    q.markDone(offset);
                }
            }
            case DONE -> {
                DoneReason reason = DoneReason.of(record.argument());
                for (long offset : offsets) {
                    if (q.markDone(offset) && reason != null) {
                        q.countFinished(switch (reason) {
                            case EXPIRED -> FinishReason.EXPIRED;
                            case DEAD_LETTERED -> FinishReason.DEAD_LETTERED;
                            case SKIPPED -> FinishReason.SKIPPED;
                        });
                    }
                }
            }
            default -> {
            }
        }
    }
}
