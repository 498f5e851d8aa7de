package dev.wharf.broker.ack;

import dev.wharf.broker.ack.persist.AckLog;
import dev.wharf.broker.ack.persist.AckStateDocument;
import dev.wharf.broker.ack.state.AckStateTable;
import dev.wharf.broker.config.JsonConfigFile;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The snapshot file ({@code config/ackState.json}) of the state table: loaded (and the ack log replayed above
 * it) at start, written when the state changed and at shutdown. Writes are serialised by the caller (the ack
 * service's thread, or start and shutdown).
 */
final class AckSnapshots {

    private final AckStateTable table;
    private final AckLog ackLog;
    private final JsonConfigFile<AckStateDocument> file;
    private final AtomicLong mutations;
    private volatile long writtenAt = -1;

    /** @param mutations counts state changes; a snapshot is written when it moved since the last one */
    AckSnapshots(AckStateTable table, AckLog ackLog, JsonConfigFile<AckStateDocument> file, AtomicLong mutations) {
        this.table = table;
        this.ackLog = ackLog;
        this.file = file;
        this.mutations = mutations;
    }

    /**
     * Fills the (empty) table from the snapshot and the ack log above it, then writes a fresh snapshot at once:
     * it also covers a log that lost its tail below the old snapshot's offset (a crash with unflushed pages),
     * whose new records would otherwise sit below an offset replay starts above.
     *
     * @return a line for the log saying what was loaded
     * @throws IOException the snapshot exists but neither it nor its backup is usable
     */
    String load() throws IOException {
        AckStateDocument doc = file.load();
        long from = 0;
        if (doc != null) {
            try {
                AckRecovery.restore(table, doc);
            } catch (IllegalArgumentException e) {
                throw new IOException(file.path() + ": " + e.getMessage() + "; restore its backup or remove both to"
                        + " start over (every message not acknowledged since is then redelivered)", e);
            }
            from = doc.ackLogOffset();
        }
        long replayed = ackLog.replay(from, record -> AckRecovery.apply(table, record));
        write(true);
        return table.size() + " group/topic pair(s), snapshot " + (doc == null ? "absent" : "at ack-log offset " + from)
                + ", " + replayed + " ack-log record(s) replayed";
    }

    /** Writes the snapshot when something changed since the last one (or always, when forced). */
    void write(boolean force) throws IOException {
        long version = mutations.get();
        if (!force && version == writtenAt) {
            return;
        }
        // read before the states: every record below it has been applied to the state it names
        long covered = ackLog.endOffset();
        file.persist(AckRecovery.snapshot(table, covered));
        writtenAt = version;
    }
}
