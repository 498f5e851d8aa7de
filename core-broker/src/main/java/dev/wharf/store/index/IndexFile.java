package dev.wharf.store.index;

import dev.wharf.store.file.MappedFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One index file: a fixed-size on-disk hash table from key hash to commit-log offsets. Layout: the
 * {@link IndexHeader}, then {@code hashSlotCount} {@link IndexSlot}s, then the {@link IndexUnit}s. Each slot
 * holds the number of the newest unit hashed to it; each unit links to the previous unit of its slot, so a
 * chain runs newest to oldest. Units are appended in commit-log order, so offsets never decrease with the unit
 * number.
 *
 * <p>Thread-safety: one writer ({@link #put}, {@link #truncate}, {@link #relinkAfterCrash()}); any number of
 * concurrent readers ({@link #collect}). The writer writes a unit, then publishes the unit count (a volatile),
 * then points the slot at the unit; a reader reads the count before following a slot and ignores unit numbers
 * above it, so it only reads units whose bytes were published. {@link #truncate} and
 * {@link #relinkAfterCrash()} are meant for recovery, before queries are served: a query racing them may see
 * a partly rewritten chain.
 */
final class IndexFile {

    private static final Logger log = LoggerFactory.getLogger(IndexFile.class);

    /** Disk blocks the unit area is given at a time ahead of the writer. */
    static final int RESERVE_STEP = 1024 * 1024;

    /** How long a reader waits for the count to catch up with a slot it saw updated (a few nanoseconds). */
    private static final int SLOT_RACE_SPINS = 10_000;

    private final MappedFile file;
    private final int slotCount;
    /** Unit positions in the file; numbers 1 to {@code unitPositions - 1} are usable. */
    private final int unitPositions;
    private volatile int indexCount;
    private volatile long beginTimestamp;
    private volatile long endTimestamp;
    private volatile long beginPhyOffset;
    private volatile long endPhyOffset;
    private volatile boolean dirty;
    /** Writer-owned: whether the file has disk blocks for everything written so far (see {@link #reserveFor}). */
    private boolean reservedForWrites;

    private IndexFile(MappedFile file, int slotCount, int unitPositions) {
        this.file = file;
        this.slotCount = slotCount;
        this.unitPositions = unitPositions;
    }

    /** Creates a new, empty file with the given layout. */
    static IndexFile create(Path path, int slotCount, int unitPositions) throws IOException {
        MappedFile mapped = new MappedFile(path, (int) IndexHeader.fileSize(slotCount, unitPositions), 0);
        mapped.setReserveStep(RESERVE_STEP, false);
        try {
            // slots are written anywhere in their area, so it gets its blocks at once; units follow in steps
            mapped.reserve(IndexUnit.position(slotCount, 1));
        } catch (IOException e) {
            mapped.destroy(0);
            throw e;
        }
        IndexFile index = new IndexFile(mapped, slotCount, unitPositions);
        index.reservedForWrites = true;
        mapped.putInt(IndexHeader.HASH_SLOT_COUNT, slotCount);
        index.dirty = true;
        return index;
    }

    /**
     * Opens an existing file. Its layout comes from its header (slot count) and its size; a file whose header
     * was never written takes the configured layout when its size matches it.
     */
    static IndexFile open(Path path, int configuredSlots, int configuredUnits) throws IOException {
        long size = Files.size(path);
        if (size < IndexHeader.SIZE || size > Integer.MAX_VALUE) {
            throw new IOException("Index file " + path + " is " + size + " bytes, not an index file; move it out of"
                    + " the index directory.");
        }
        MappedFile mapped = new MappedFile(path, (int) size, 0);
        mapped.setReserveStep(RESERVE_STEP, false);
        try {
            int slots = mapped.getInt(IndexHeader.HASH_SLOT_COUNT);
            if (slots == 0 && mapped.getInt(IndexHeader.INDEX_COUNT) == 0
                    && size == IndexHeader.fileSize(configuredSlots, configuredUnits)) {
                slots = configuredSlots;
                mapped.putInt(IndexHeader.HASH_SLOT_COUNT, slots);
            }
            long unitBytes = size - IndexHeader.SIZE - (long) slots * IndexSlot.SIZE;
            if (slots <= 0 || unitBytes < 2L * IndexUnit.SIZE || unitBytes % IndexUnit.SIZE != 0) {
                throw new IOException("Index file " + path + " (" + size + " bytes) does not match its header's slot"
                        + " count " + slots + "; it is damaged: move it out of the index directory.");
            }
            IndexFile index = new IndexFile(mapped, slots, (int) (unitBytes / IndexUnit.SIZE));
            index.readHeader();
            return index;
        } catch (IOException | RuntimeException e) {
            mapped.shutdown(0);
            throw e;
        }
    }

    private void readHeader() throws IOException {
        int count = file.getInt(IndexHeader.INDEX_COUNT);
        if (count < 0 || count >= unitPositions) {
            throw new IOException("Index file " + file.getPath() + " claims " + count + " entries but has room for "
                    + (unitPositions - 1) + "; it is damaged: move it out of the index directory.");
        }
        beginTimestamp = file.getLong(IndexHeader.BEGIN_TIMESTAMP);
        endTimestamp = file.getLong(IndexHeader.END_TIMESTAMP);
        beginPhyOffset = file.getLong(IndexHeader.BEGIN_PHY_OFFSET);
        endPhyOffset = file.getLong(IndexHeader.END_PHY_OFFSET);
        indexCount = count;
    }

    /**
     * Appends an entry.
     *
     * @return false, writing nothing, when the file is full
     */
    boolean put(int keyHash, long phyOffset, long storeTimestamp) {
        int count = indexCount;
        if (count >= unitPositions - 1) {
            return false;
        }
        int unitNo = count + 1;
        reserveFor(unitNo);
        int slotPos = IndexSlot.position(IndexSlot.slotOf(keyHash, slotCount));
        int head = file.getInt(slotPos);
        if (head < 0 || head > count) {
            head = IndexSlot.EMPTY; // left over from a crash: points at nothing that exists
        }
        if (count == 0) {
            beginTimestamp = storeTimestamp;
            beginPhyOffset = phyOffset;
            file.putLong(IndexHeader.BEGIN_TIMESTAMP, storeTimestamp);
            file.putLong(IndexHeader.BEGIN_PHY_OFFSET, phyOffset);
        }
        int unitPos = IndexUnit.position(slotCount, unitNo);
        file.putInt(unitPos + IndexUnit.KEY_HASH, keyHash);
        file.putLong(unitPos + IndexUnit.PHY_OFFSET, phyOffset);
        file.putInt(unitPos + IndexUnit.TIME_DIFF, timeDiff(storeTimestamp));
        file.putInt(unitPos + IndexUnit.PREV_INDEX, head);

        long end = Math.max(endTimestamp, storeTimestamp);
        file.putLong(IndexHeader.END_TIMESTAMP, end);
        file.putLong(IndexHeader.END_PHY_OFFSET, phyOffset);
        file.putInt(IndexHeader.INDEX_COUNT, unitNo);
        endTimestamp = end;
        endPhyOffset = phyOffset;
        indexCount = unitNo; // publishes the unit to readers
        file.putInt(slotPos, unitNo);
        dirty = true;
        return true;
    }

    /**
     * Gives disk blocks to everything up to unit {@code unitNo}, so the mapped writes of a put cannot fault on a
     * full disk. A file opened from disk may have holes among its slots, so the first call writes the header and
     * slots back in place (the units below {@code unitNo} were written, so they have blocks); later calls add zeroed
     * steps for new units.
     *
     * @throws UncheckedIOException when the disk has no room (nothing of the put was written)
     */
    void reserveFor(int unitNo) {
        try {
            if (!reservedForWrites) {
                // slots are written anywhere, so their area may have holes; the units below were all written
                file.reserveKeepingContent(IndexUnit.position(slotCount, 1));
                file.assumeReserved(IndexUnit.position(slotCount, unitNo));
                reservedForWrites = true;
            }
            file.reserve(IndexUnit.position(slotCount, unitNo) + IndexUnit.SIZE);
        } catch (IOException e) {
            throw new UncheckedIOException("disk full: no room to index messages in " + file.getPath() + ": "
                    + e.getMessage() + "; free space on the store's file system", e);
        }
    }

    /** Seconds after the begin timestamp; a clock that went back counts as the begin. */
    private int timeDiff(long storeTimestamp) {
        long seconds = Math.max(0, secondsAfterBegin(storeTimestamp, beginTimestamp));
        return (int) Math.min(Integer.MAX_VALUE, seconds);
    }

    private static long secondsAfterBegin(long timestamp, long begin) {
        long diff;
        try {
            diff = Math.subtractExact(timestamp, begin);
        } catch (ArithmeticException e) {
            diff = timestamp < begin ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return Math.floorDiv(diff, 1000L);
    }

    /**
     * Adds to {@code out}, newest first, the offsets of entries with {@code keyHash} stored within
     * [{@code begin}, {@code end}] (at second precision: an entry up to a second outside may be included), until
     * {@code out} holds {@code maxNum}. Entries whose hash matches may still belong to another key.
     */
    void collect(int keyHash, long begin, long end, int maxNum, List<Long> out) {
        if (!file.hold()) {
            return; // being deleted
        }
        try {
            int count = indexCount;
            if (count == 0) {
                return;
            }
            long base = beginTimestamp;
            long lowDiff = secondsAfterBegin(begin, base);
            long highDiff = secondsAfterBegin(end, base);
            if (highDiff < 0 || lowDiff > secondsAfterBegin(endTimestamp, base)) {
                return;
            }
            int unitNo = file.getInt(IndexSlot.position(IndexSlot.slotOf(keyHash, slotCount)));
            for (int spins = 0; unitNo > count && spins < SLOT_RACE_SPINS; spins++) {
                Thread.onSpinWait();
                count = indexCount;
            }
            if (unitNo > count) {
                return; // a truncation is rewriting this file
            }
            while (unitNo > IndexSlot.EMPTY && out.size() < maxNum) {
                int unitPos = IndexUnit.position(slotCount, unitNo);
                int diff = file.getInt(unitPos + IndexUnit.TIME_DIFF);
                if (file.getInt(unitPos + IndexUnit.KEY_HASH) == keyHash && diff >= lowDiff && diff <= highDiff) {
                    out.add(file.getLong(unitPos + IndexUnit.PHY_OFFSET));
                }
                int prev = file.getInt(unitPos + IndexUnit.PREV_INDEX);
                if (prev >= unitNo || prev < 0) {
                    log.warn("Index file {}: unit {} links to {}; the rest of its chain is skipped", file.getFileName(),
                            unitNo, prev);
                    return;
                }
                unitNo = prev;
            }
        } finally {
            file.release();
        }
    }

    /**
     * Removes the entries at or past {@code maxPhyOffset}. They are the newest units, so each removal undoes
     * one append exactly: the unit's slot gets its previous unit back. Should a slot not point at the unit being
     * removed (a crash interrupted a put), all slots are rebuilt from the remaining units instead.
     *
     * @return true when entries were removed
     */
    boolean truncate(long maxPhyOffset) {
        int count = indexCount;
        if (count == 0 || endPhyOffset < maxPhyOffset) {
            return false;
        }
        int keep = firstUnitAtOrAfter(maxPhyOffset, count) - 1;
        if (keep == 0) {
            reset();
            return true;
        }
        indexCount = keep;
        boolean consistent = true;
        for (int unitNo = count; unitNo > keep && consistent; unitNo--) {
            int unitPos = IndexUnit.position(slotCount, unitNo);
            int slotPos = IndexSlot.position(IndexSlot.slotOf(file.getInt(unitPos + IndexUnit.KEY_HASH), slotCount));
            if (file.getInt(slotPos) == unitNo) {
                file.putInt(slotPos, file.getInt(unitPos + IndexUnit.PREV_INDEX));
                zeroUnit(unitNo);
            } else {
                consistent = false;
            }
        }
        if (!consistent) {
            log.warn("Index file {}: slots do not match the units; rebuilding them from {} units", file.getFileName(),
                    keep);
            for (int unitNo = keep + 1; unitNo <= count; unitNo++) {
                zeroUnit(unitNo);
            }
            relink(keep);
        }
        int lastPos = IndexUnit.position(slotCount, keep);
        endPhyOffset = file.getLong(lastPos + IndexUnit.PHY_OFFSET);
        endTimestamp = beginTimestamp + file.getInt(lastPos + IndexUnit.TIME_DIFF) * 1000L;
        file.putLong(IndexHeader.END_PHY_OFFSET, endPhyOffset);
        file.putLong(IndexHeader.END_TIMESTAMP, endTimestamp);
        file.putInt(IndexHeader.INDEX_COUNT, keep);
        dirty = true;
        return true;
    }

    /** The first unit number in [1, count] whose offset is at or past {@code phyOffset}; count + 1 when none. */
    private int firstUnitAtOrAfter(long phyOffset, int count) {
        int low = 1;
        int high = count + 1;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (file.getLong(IndexUnit.position(slotCount, mid) + IndexUnit.PHY_OFFSET) >= phyOffset) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    /**
     * After an unclean exit: makes the slots consistent with the units when the last put was cut short between
     * publishing its unit and linking it into its slot (the unit would be unreachable, and a later truncation
     * could not undo it).
     */
    void relinkAfterCrash() {
        int count = indexCount;
        if (count == 0) {
            return;
        }
        int unitPos = IndexUnit.position(slotCount, count);
        int slotPos = IndexSlot.position(IndexSlot.slotOf(file.getInt(unitPos + IndexUnit.KEY_HASH), slotCount));
        if (file.getInt(slotPos) != count) {
            log.warn("Index file {}: the last entry was not linked when the broker stopped; rebuilding the slots",
                    file.getFileName());
            relink(count);
            dirty = true;
        }
    }

    /** Rewrites every slot and link from units 1 to {@code count}, in order. */
    private void relink(int count) {
        for (int slot = 0; slot < slotCount; slot++) {
            file.putInt(IndexSlot.position(slot), IndexSlot.EMPTY);
        }
        for (int unitNo = 1; unitNo <= count; unitNo++) {
            int unitPos = IndexUnit.position(slotCount, unitNo);
            int slotPos = IndexSlot.position(IndexSlot.slotOf(file.getInt(unitPos + IndexUnit.KEY_HASH), slotCount));
            file.putInt(unitPos + IndexUnit.PREV_INDEX, file.getInt(slotPos));
            file.putInt(slotPos, unitNo);
        }
        indexCount = count;
    }

    private void zeroUnit(int unitNo) {
        int unitPos = IndexUnit.position(slotCount, unitNo);
        file.putInt(unitPos + IndexUnit.KEY_HASH, 0);
        file.putLong(unitPos + IndexUnit.PHY_OFFSET, 0L);
        file.putInt(unitPos + IndexUnit.TIME_DIFF, 0);
        file.putInt(unitPos + IndexUnit.PREV_INDEX, 0);
    }

    /** Empties the file: header (but the slot count), slots and units back to zero. */
    private void reset() {
        indexCount = 0;
        file.zeroFrom(IndexHeader.SIZE);
        file.putLong(IndexHeader.BEGIN_TIMESTAMP, 0L);
        file.putLong(IndexHeader.END_TIMESTAMP, 0L);
        file.putLong(IndexHeader.BEGIN_PHY_OFFSET, 0L);
        file.putLong(IndexHeader.END_PHY_OFFSET, 0L);
        file.putInt(IndexHeader.INDEX_COUNT, 0);
        beginTimestamp = 0;
        endTimestamp = 0;
        beginPhyOffset = 0;
        endPhyOffset = 0;
        dirty = true;
    }

    /** Forces the file to disk when it changed since the last flush. */
    void flush() {
        if (dirty) {
            dirty = false; // cleared first: a put during the force marks it again
            file.forceAll();
        }
    }

    boolean isFull() {
        return indexCount >= unitPositions - 1;
    }

    int indexCount() {
        return indexCount;
    }

    /** Entries the file can hold. */
    int capacity() {
        return unitPositions - 1;
    }

    int slotCount() {
        return slotCount;
    }

    long beginTimestamp() {
        return beginTimestamp;
    }

    long endTimestamp() {
        return endTimestamp;
    }

    long beginPhyOffset() {
        return beginPhyOffset;
    }

    long endPhyOffset() {
        return endPhyOffset;
    }

    String fileName() {
        return file.getFileName();
    }

    Path path() {
        return file.getPath();
    }

    /** Whether queries may still read the file (false once its deletion began). */
    boolean isAvailable() {
        return file.isAvailable();
    }

    /** Unmaps and deletes the file once no query holds it; false while one does (call again later). */
    boolean destroy(long intervalForcibly) {
        return file.destroy(intervalForcibly);
    }

    /** Flushes and unmaps the file. */
    void shutdown() {
        flush();
        file.shutdown(0);
    }

    @Override
    public String toString() {
        return "IndexFile{" + file.getFileName() + ", count=" + indexCount + ", phy=[" + beginPhyOffset + ", "
                + endPhyOffset + "]}";
    }
}
