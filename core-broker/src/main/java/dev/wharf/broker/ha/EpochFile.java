package dev.wharf.broker.ha;

import dev.wharf.store.config.ConfigFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The epoch history of a replica's commit log, in {@value #FILE_NAME} beside it: which master term wrote which
 * part of the log. Two replicas compare histories to find the last offset where their logs are the same
 * ({@link #lastCommonOffset}). Every change rewrites the file atomically (temp file, fsync, rename, with the
 * previous content kept as a backup, see {@link ConfigFile}); a damaged file falls back to the backup.
 *
 * <p>Layout (UTF-8 text, one item per line):
 * <pre>
 * wharf-epochs 1                 format name and version
 * EPOCH STARTOFFSET              one line per entry, epochs strictly increasing, start offsets not decreasing
 * ...
 * crc CRC32                      CRC32 (decimal) of every byte before this line
 * </pre>
 * Start offsets may repeat: a term in which nothing was written starts where the next one does.
 *
 * <p>Thread-safe (synchronized).
 */
public final class EpochFile {

    public static final String FILE_NAME = "epochFileCheckpoint";
    static final String HEADER = "wharf-epochs 1";

    private final ConfigFile file;
    private final List<EpochEntry> entries = new ArrayList<>();

    private EpochFile(ConfigFile file) {
        this.file = file;
    }

    /** Opens (or starts empty) the epoch file in the store root {@code storeRoot}. */
    public static EpochFile open(Path storeRoot) throws IOException {
        EpochFile epochs = new EpochFile(new ConfigFile(storeRoot.resolve(FILE_NAME)));
        String content = epochs.file.load(text -> parse(text) != null);
        if (content != null) {
            epochs.entries.addAll(parse(content));
        }
        return epochs;
    }

    public Path path() {
        return file.path();
    }

    public synchronized List<EpochEntry> entries() {
        return List.copyOf(entries);
    }

    /** The newest epoch, 0 when the history is empty. */
    public synchronized int lastEpoch() {
        return entries.isEmpty() ? 0 : entries.get(entries.size() - 1).epoch();
    }

    public synchronized EpochEntry last() {
        return entries.isEmpty() ? null : entries.get(entries.size() - 1);
    }

    /**
     * Records that {@code epoch} starts writing at {@code startOffset}; durable when this returns.
     *
     * @throws IllegalArgumentException when the epoch is not above the last one or the offset is below its start
     */
    public synchronized void append(int epoch, long startOffset) throws IOException {
        EpochEntry entry = new EpochEntry(epoch, startOffset);
        EpochEntry last = last();
        if (last != null && (epoch <= last.epoch() || startOffset < last.startOffset())) {
            throw new IllegalArgumentException("Epoch " + epoch + " at offset " + startOffset + " cannot follow epoch "
                    + last.epoch() + " at offset " + last.startOffset() + " in " + file.path()
                    + ": epochs must increase and start offsets must not go back");
        }
        List<EpochEntry> next = new ArrayList<>(entries);
        next.add(entry);
        save(next);
    }

    /** Drops the entries that start beyond {@code offset} (the log was cut there); durable when this returns. */
    public synchronized void truncateAfter(long offset) throws IOException {
        List<EpochEntry> next = new ArrayList<>();
        for (EpochEntry e : entries) {
            if (e.startOffset() <= offset) {
                next.add(e);
            }
        }
        if (next.size() != entries.size()) {
            save(next);
        }
    }

    /**
     * Drops the entries that end at or below {@code minOffset} (the commit log's first offset after its oldest
     * files were deleted): an entry ends where the next one starts, so the last entry and the one covering
     * {@code minOffset} always stay. Keeps the history (and the HA handshake that carries it) bounded by what the
     * log still holds. Durable when this returns.
     *
     * @return how many entries were dropped
     */
    public synchronized int pruneBefore(long minOffset) throws IOException {
        int drop = 0;
        while (drop + 1 < entries.size() && entries.get(drop + 1).startOffset() <= minOffset) {
            drop++;
        }
        if (drop > 0) {
            save(new ArrayList<>(entries.subList(drop, entries.size())));
        }
        return drop;
    }

    /** Replaces the whole history (a replica adopting its master's); durable when this returns. */
    public synchronized void replaceWith(List<EpochEntry> history) throws IOException {
        if (parse(format(history)) == null) {
            throw new IllegalArgumentException("Not a valid epoch history: " + history);
        }
        if (!history.equals(entries)) {
            save(new ArrayList<>(history));
        }
    }

    private void save(List<EpochEntry> next) throws IOException {
        file.persist(format(next));
        entries.clear();
        entries.addAll(next);
    }

    /**
     * The largest offset up to which two logs with these histories hold the same records: the end (in both) of
     * the newest epoch that both have with the same start offset. An entry's end is the next entry's start,
     * the last one's is the log's end.
     *
     * @return the common offset; {@code localMax} when {@code local} is empty (no history to compare: a new
     *         replica or one from classic replication, which the record fingerprints check instead); -1 when the
     *         histories share no epoch (the logs cannot be reconciled automatically)
     */
    public static long lastCommonOffset(List<EpochEntry> local, long localMax, List<EpochEntry> master,
            long masterMax) {
        if (local.isEmpty()) {
            return localMax;
        }
        for (int i = local.size() - 1; i >= 0; i--) {
            EpochEntry mine = local.get(i);
            if (mine.startOffset() > localMax) {
                continue; // a term that starts beyond this log's end wrote nothing here
            }
            for (int j = master.size() - 1; j >= 0; j--) {
                EpochEntry theirs = master.get(j);
                if (theirs.epoch() == mine.epoch() && theirs.startOffset() == mine.startOffset()) {
                    long localEnd = i + 1 < local.size() ? Math.min(local.get(i + 1).startOffset(), localMax) : localMax;
                    long masterEnd = j + 1 < master.size() ? master.get(j + 1).startOffset() : masterMax;
                    return Math.min(localEnd, masterEnd);
                }
            }
        }
        return -1;
    }

    static String format(List<EpochEntry> list) {
        StringBuilder sb = new StringBuilder(HEADER).append('\n');
        for (EpochEntry e : list) {
            sb.append(e.epoch()).append(' ').append(e.startOffset()).append('\n');
        }
        long crc = crc(sb);
        return sb.append("crc ").append(crc).append('\n').toString();
    }

    /** The entries, or null when the text is not a complete, valid epoch file. */
    static List<EpochEntry> parse(String text) {
        int crcLine = text.lastIndexOf("crc ");
        if (!text.startsWith(HEADER + "\n") || crcLine < 0 || !text.endsWith("\n")) {
            return null;
        }
        String body = text.substring(0, crcLine);
        try {
            if (Long.parseLong(text.substring(crcLine + 4, text.length() - 1).trim()) != crc(body)) {
                return null;
            }
            List<EpochEntry> list = new ArrayList<>();
            String[] lines = body.split("\n");
            for (int i = 1; i < lines.length; i++) {
                String[] parts = lines[i].trim().split(" ");
                if (parts.length != 2) {
                    return null;
                }
                EpochEntry e = new EpochEntry(Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
                EpochEntry before = list.isEmpty() ? null : list.get(list.size() - 1);
                if (before != null && (e.epoch() <= before.epoch() || e.startOffset() < before.startOffset())) {
                    return null;
                }
                list.add(e);
            }
            return list;
        } catch (IllegalArgumentException e) {
            return null; // NumberFormatException included
        }
    }

    private static long crc(CharSequence text) {
        CRC32 crc = new CRC32();
        crc.update(text.toString().getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }
}
