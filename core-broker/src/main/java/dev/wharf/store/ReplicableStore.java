package dev.wharf.store;

import dev.wharf.store.commitlog.RecordFingerprint;
import dev.wharf.store.commitlog.ReplicaAppendResult;
import dev.wharf.store.commitlog.ReplicaSlice;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.function.LongSupplier;

/**
 * The commit log as replication sees it: read whole records from an offset, append a master's records at
 * exactly the same offsets, compare records by fingerprint, hear about appends, hold back what consumers may
 * see, and wait for replicas on the put path. The store knows nothing of how the bytes travel. Thread-safe.
 */
public interface ReplicableStore extends MessageStore {

    /**
     * A zero-copy view of the whole records from {@code offset} within its commit-log file, at most about
     * {@code maxBytes} (at least one record); a blank end-of-file record comes as its 8-byte header alone and
     * ends the view; {@link ReplicaSlice#nextOffset()} says where to read next. The caller releases it.
     *
     * @return null when nothing is written at {@code offset} yet or it is not a record start
     */
    ReplicaSlice readCommitLog(long offset, int maxBytes);

    /**
     * Appends whole records of a master's commit log at exactly {@link #getMaxPhyOffset()} (a slave's only
     * way to write). The dispatcher then builds consume queues and the index from them. Checked first: on a
     * refusal nothing is written. With SYNC_FLUSH it returns once the bytes are on disk.
     */
    ReplicaAppendResult appendCommitLog(long offset, ByteBuffer records);

    /**
     * {@link #appendCommitLog} without telling anyone: neither the dispatcher nor the append listeners run until
     * {@link #announceAppend()}. A slave answers its master first, so the dispatch thread it wakes cannot take
     * the core its acknowledgement needs (the master's senders wait for that acknowledgement, nobody waits for
     * the slave's consume queues).
     */
    ReplicaAppendResult appendCommitLogQuietly(long offset, ByteBuffer records);

    /** Wakes the dispatcher and runs the append listeners after {@link #appendCommitLogQuietly} (harmless otherwise). */
    void announceAppend();

    /** The fingerprint of the record at {@code offset}, or null when no record starts there. */
    RecordFingerprint fingerprintAt(long offset);

    /** The fingerprint of the last record of the commit log, or null when it is empty. */
    RecordFingerprint lastRecordFingerprint();

    /** Runs {@code listener} after every append, on the appending thread (keep it cheap: wake a thread). */
    void addAppendListener(Runnable listener);

    /**
     * Limits what is dispatched to consume queues (and so what consumers see) to {@code confirmOffset}'s value,
     * which only grows and falls on record boundaries. Start-up recovery still rebuilds the queues from the
     * whole log. Call before {@link #start()}; call {@link #confirmOffsetMoved()} when the value grows.
     */
    void setConfirmOffsetSupplier(LongSupplier confirmOffset);

    /** Wakes the dispatcher after the confirm offset grew. */
    void confirmOffsetMoved();

    /**
     * Sets what hears the commit log's new min offset after its oldest files were deleted (on the clean-up
     * thread; replication prunes its epoch history there); null for nobody.
     */
    void setLogStartListener(java.util.function.LongConsumer listener);

    /** Installs the put path's replication gate and wait; call before {@link #start()}. */
    void setPutReplication(PutReplication replication);

    /**
     * Cuts the commit log back to {@code offset}, a record boundary within [min offset, max offset], and with it
     * the consume queues, the index and the next queue offsets, so that a replica whose tail diverged from its
     * new master's log can copy from there. Puts and replicated appends wait meanwhile. Everything is on disk
     * when this returns (a crash afterwards never brings the cut records back). Nothing happens when
     * {@code offset} is at or past the end.
     *
     * @throws IllegalArgumentException when {@code offset} is below the oldest byte held or not a record start
     * @throws IOException              when the cut could not be made durable (the store is then unchanged or
     *                                  already cut; calling again is safe)
     */
    void truncateTo(long offset) throws IOException;

    /**
     * Readies a replica that copied its log for its own puts (it was elected master): waits until the consume
     * queues hold the whole log, then takes each queue's next offset from them (replicated appends assign none).
     *
     * @return false when dispatch did not catch up within {@code timeoutMillis} (queue offsets left unchanged)
     */
    boolean prepareForPuts(long timeoutMillis);
}
