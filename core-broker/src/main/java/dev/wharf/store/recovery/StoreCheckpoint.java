package dev.wharf.store.recovery;

import static dev.wharf.store.recovery.CheckpointLayout.*;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code checkpoint} file (layout in {@link CheckpointLayout}): how far the commit log, consume queues and
 * index are known to be on disk, and where the commit log ended at a clean shutdown. Recovery starts from it
 * instead of re-scanning the whole log.
 *
 * <p>Thread-safe: setters and {@link #flush()} are synchronized; writes go through a file channel and are
 * forced.
 */
public final class StoreCheckpoint implements AutoCloseable {

    public static final String FILE_NAME = "checkpoint";

    private static final Logger log = LoggerFactory.getLogger(StoreCheckpoint.class);

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer slot = ByteBuffer.allocate(SLOT_SIZE);
    private long sequence;
    private long physicMsgTimestamp;
    private long logicsMsgTimestamp;
    private long indexMsgTimestamp;
    private long safeOffset;
    private long cleanShutdownOffset = RUNNING;
    private boolean loadedValid;

    private StoreCheckpoint(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    /** Opens (or creates) the checkpoint of the store under {@code rootDir} and reads its newest valid slot. */
    public static StoreCheckpoint open(Path rootDir) throws IOException {
        Path path = rootDir.resolve(FILE_NAME);
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        StoreCheckpoint checkpoint = new StoreCheckpoint(path, channel);
        try {
            checkpoint.read();
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        return checkpoint;
    }

    private void read() throws IOException {
        ByteBuffer all = ByteBuffer.allocate(FILE_SIZE);
        while (all.hasRemaining() && channel.read(all, all.position()) > 0) {
            // keep reading until the file ends
        }
        int bestSlot = -1;
        long bestSequence = Long.MIN_VALUE;
        for (int i = 0; i < SLOT_COUNT; i++) {
            int at = slotPosition(i);
            if (all.position() >= at + SLOT_SIZE && isValid(all, at) && all.getLong(at + SEQUENCE_OFFSET) > bestSequence) {
                bestSequence = all.getLong(at + SEQUENCE_OFFSET);
                bestSlot = i;
            }
        }
        if (bestSlot < 0) {
            if (channel.size() > 0) {
                log.warn("Checkpoint {} is unreadable; recovery will validate the whole commit log", path);
            }
            return;
        }
        int at = slotPosition(bestSlot);
        loadedValid = true;
        sequence = bestSequence;
        physicMsgTimestamp = all.getLong(at + PHYSIC_MSG_TIMESTAMP_OFFSET);
        logicsMsgTimestamp = all.getLong(at + LOGICS_MSG_TIMESTAMP_OFFSET);
        indexMsgTimestamp = all.getLong(at + INDEX_MSG_TIMESTAMP_OFFSET);
        safeOffset = all.getLong(at + SAFE_OFFSET_OFFSET);
        cleanShutdownOffset = all.getLong(at + CLEAN_SHUTDOWN_OFFSET_OFFSET);
    }

    private static boolean isValid(ByteBuffer all, int at) {
        if (all.getInt(at + MAGIC_OFFSET) != MAGIC || all.getInt(at + VERSION_OFFSET) != VERSION) {
            return false;
        }
        return crc(all, at) == all.getInt(at + CRC_OFFSET);
    }

    private static int crc(ByteBuffer buffer, int at) {
        CRC32 crc = new CRC32();
        ByteBuffer view = buffer.duplicate();
        view.limit(at + CRC_COVERED).position(at);
        crc.update(view);
        return (int) crc.getValue();
    }

    /** Writes the current values into the older slot and forces it. */
    public synchronized void flush() throws IOException {
        sequence++;
        slot.clear();
        slot.putInt(MAGIC_OFFSET, MAGIC)
                .putInt(VERSION_OFFSET, VERSION)
                .putLong(SEQUENCE_OFFSET, sequence)
                .putLong(PHYSIC_MSG_TIMESTAMP_OFFSET, physicMsgTimestamp)
                .putLong(LOGICS_MSG_TIMESTAMP_OFFSET, logicsMsgTimestamp)
                .putLong(INDEX_MSG_TIMESTAMP_OFFSET, indexMsgTimestamp)
                .putLong(SAFE_OFFSET_OFFSET, safeOffset)
                .putLong(CLEAN_SHUTDOWN_OFFSET_OFFSET, cleanShutdownOffset)
                .putInt(CRC_OFFSET + 4, 0);
        slot.putInt(CRC_OFFSET, crc(slot, 0));
        long position = slotPosition((int) (sequence % SLOT_COUNT));
        slot.position(0).limit(SLOT_SIZE);
        while (slot.hasRemaining()) {
            channel.write(slot, position + slot.position());
        }
        channel.force(false);
    }

    /** Whether a valid slot was found when the file was opened. */
    public synchronized boolean wasLoadedValid() {
        return loadedValid;
    }

    public synchronized long getPhysicMsgTimestamp() {
        return physicMsgTimestamp;
    }

    public synchronized void setPhysicMsgTimestamp(long physicMsgTimestamp) {
        this.physicMsgTimestamp = physicMsgTimestamp;
    }

    public synchronized long getLogicsMsgTimestamp() {
        return logicsMsgTimestamp;
    }

    public synchronized void setLogicsMsgTimestamp(long logicsMsgTimestamp) {
        this.logicsMsgTimestamp = logicsMsgTimestamp;
    }

    public synchronized long getIndexMsgTimestamp() {
        return indexMsgTimestamp;
    }

    public synchronized void setIndexMsgTimestamp(long indexMsgTimestamp) {
        this.indexMsgTimestamp = indexMsgTimestamp;
    }

    /** Record boundary below which commit log, consume queues and index are all on disk. */
    public synchronized long getSafeOffset() {
        return safeOffset;
    }

    public synchronized void setSafeOffset(long safeOffset) {
        this.safeOffset = safeOffset;
    }

    /** End of the commit log at the last clean shutdown, or {@link CheckpointLayout#RUNNING}. */
    public synchronized long getCleanShutdownOffset() {
        return cleanShutdownOffset;
    }

    public synchronized void setCleanShutdownOffset(long cleanShutdownOffset) {
        this.cleanShutdownOffset = cleanShutdownOffset;
    }

    public Path path() {
        return path;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            log.warn("Could not close {}: {}", path, e.toString());
        }
    }
}
