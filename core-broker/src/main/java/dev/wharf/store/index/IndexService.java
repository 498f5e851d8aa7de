package dev.wharf.store.index;

import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.store.dispatch.DispatchRequest;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The message index: for each dispatched message, one entry per space-separated {@code KEYS} entry and one for
 * its unique id, under the key {@code topic#key}; queries return the commit-log offsets of a key's messages
 * within a time window, newest first.
 *
 * <p>On disk: {@code {indexDir}/{yyyyMMddHHmmssSSS}}, one fixed-size {@link IndexFile} per name, named by its
 * creation time in UTC (a name never repeats or goes backwards, even when the clock does), so name order is
 * creation order and commit-log order. A new file starts when the newest is full.
 *
 * <p>Matching is by key hash, so a result may hold offsets of messages with another key (or topic) that hashes
 * the same: the caller reads each message and keeps those whose topic and key really match.
 *
 * <p>Thread-safety: {@link #buildIndex} runs on the single dispatch thread; {@link #queryOffset} runs
 * concurrently on any thread without locks; {@link #flush()} on the flush thread and
 * {@link #deleteExpiredFile(long)} on the clean-up thread. {@link #load}, {@link #truncate(long)} and
 * {@link #shutdown()} run while the store is starting or stopping.
 */
public final class IndexService {

    private static final Logger log = LoggerFactory.getLogger(IndexService.class);

    public static final int DEFAULT_MAX_HASH_SLOT_NUM = 5_000_000;
    public static final int DEFAULT_MAX_INDEX_NUM = 20_000_000;

    private static final DateTimeFormatter FILE_NAME_FORMAT = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");
    private static final int FILE_NAME_LENGTH = 17;
    /** Separates the entries of the KEYS property. */
    private static final char KEY_SEPARATOR = ' ';

    private final Path indexDir;
    private final int maxHashSlotNum;
    private final int maxIndexNum;
    /** Oldest first; the last one takes new entries. */
    private final CopyOnWriteArrayList<IndexFile> files = new CopyOnWriteArrayList<>();
    private volatile long lastIndexedPhyOffset = -1;
    /** Writer-owned: creation time of the newest file, so names stay unique and increasing. */
    private long lastFileMillis = Long.MIN_VALUE;
    /** Writer-owned: the newest file, which takes the entries; null until the first put after load or truncate. */
    private IndexFile current;

    /**
     * @param indexDir       the {@code index} directory
     * @param maxHashSlotNum hash slots per file ({@value #DEFAULT_MAX_HASH_SLOT_NUM} by default)
     * @param maxIndexNum    unit positions per file ({@value #DEFAULT_MAX_INDEX_NUM} by default); unit number
     *                       0 marks an empty slot, so a file holds {@code maxIndexNum - 1} entries
     */
    public IndexService(Path indexDir, int maxHashSlotNum, int maxIndexNum) {
        if (maxHashSlotNum < 1) {
            throw new IllegalArgumentException("maxHashSlotNum must be at least 1, got " + maxHashSlotNum
                    + "; the default is " + DEFAULT_MAX_HASH_SLOT_NUM + ".");
        }
        if (maxIndexNum < 2) {
            throw new IllegalArgumentException("maxIndexNum must be at least 2 (unit 0 is reserved), got "
                    + maxIndexNum + "; the default is " + DEFAULT_MAX_INDEX_NUM + ".");
        }
        long fileSize = IndexHeader.fileSize(maxHashSlotNum, maxIndexNum);
        if (fileSize > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("An index file of " + maxHashSlotNum + " slots and " + maxIndexNum
                    + " units would be " + fileSize + " bytes; keep 40 + 4 * maxHashSlotNum + 20 * maxIndexNum"
                    + " within " + Integer.MAX_VALUE + " bytes.");
        }
        this.indexDir = indexDir;
        this.maxHashSlotNum = maxHashSlotNum;
        this.maxIndexNum = maxIndexNum;
    }

    /**
     * Opens the existing index files. After an unclean exit ({@code lastExitOK} false) the newest file's slots
     * are checked against its last entry and rebuilt when a put was cut short; entries past the commit log's
     * valid end are removed by the store's later call of {@link #truncate(long)}.
     *
     * @throws IOException when a file cannot be mapped or is damaged (the message names it)
     */
    public void load(boolean lastExitOK) throws IOException {
        if (!Files.isDirectory(indexDir)) {
            return;
        }
        List<Path> paths = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(indexDir)) {
            for (Path p : stream) {
                if (parseFileName(p.getFileName().toString()) != Long.MIN_VALUE && Files.isRegularFile(p)) {
                    paths.add(p);
                } else {
                    log.warn("Skipping {} in the index directory: not an index file (yyyyMMddHHmmssSSS)", p);
                }
            }
        }
        paths.sort(null);
        List<IndexFile> loaded = new ArrayList<>();
        try {
            for (Path p : paths) {
                loaded.add(IndexFile.open(p, maxHashSlotNum, maxIndexNum));
            }
        } catch (IOException | RuntimeException e) {
            loaded.forEach(IndexFile::shutdown);
            throw e;
        }
        if (!loaded.isEmpty()) {
            IndexFile newest = loaded.get(loaded.size() - 1);
            if (!lastExitOK) {
                try {
                    // blocks first: relinking writes slots, which on a full disk would fault through the mapping
                    newest.reserveFor(newest.indexCount() + 1);
                } catch (java.io.UncheckedIOException e) {
                    loaded.forEach(IndexFile::shutdown);
                    throw new IOException("Cannot repair the index after a crash: " + e.getMessage()
                            + ", then start again.", e);
                }
                newest.relinkAfterCrash();
            }
            lastFileMillis = parseFileName(newest.fileName());
        }
        files.addAll(loaded);
        lastIndexedPhyOffset = computeLastIndexed();
        log.info("Loaded {} index file(s); last indexed commit-log offset {}", loaded.size(), lastIndexedPhyOffset);
    }

    /** Epoch millis a file name stands for, {@link Long#MIN_VALUE} when it is not an index file name. */
    static long parseFileName(String name) {
        if (name.length() != FILE_NAME_LENGTH || !name.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return Long.MIN_VALUE;
        }
        try {
            return LocalDateTime.parse(name, FILE_NAME_FORMAT).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeParseException e) {
            return Long.MIN_VALUE;
        }
    }

    static String fileName(long epochMillis) {
        return FILE_NAME_FORMAT.format(LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC));
    }

    /**
     * Indexes one message: every non-empty space-separated KEYS entry and the unique id, as {@code topic#key}.
     * A message at or below the last indexed offset is skipped (re-dispatch after recovery), and so is a
     * transaction rollback record (it is not a message anyone looks up).
     */
    public void buildIndex(DispatchRequest request) {
        long phyOffset = request.commitLogOffset();
        if (phyOffset <= lastIndexedPhyOffset) {
            return;
        }
        if (MessageSysFlag.transactionType(request.sysFlag()) != MessageSysFlag.TRANSACTION_ROLLBACK_TYPE) {
            String topic = request.topic();
            long storeTimestamp = request.storeTimestamp();
            String keys = request.keys();
            if (keys != null) {
                int start = 0;
                for (int i = 0; i <= keys.length(); i++) {
                    if (i == keys.length() || keys.charAt(i) == KEY_SEPARATOR) {
                        if (i > start && !hasToken(keys, start, keys, start, i - start)) {
                            put(IndexKey.hash(topic, keys, start, i), phyOffset, storeTimestamp);
                        }
                        start = i + 1;
                    }
                }
            }
            String uniqKey = request.uniqKey();
            if (uniqKey != null && !uniqKey.isEmpty()
                    && (keys == null || !hasToken(keys, keys.length(), uniqKey, 0, uniqKey.length()))) {
                put(IndexKey.hash(topic, uniqKey), phyOffset, storeTimestamp);
            }
        }
        lastIndexedPhyOffset = phyOffset;
    }

    /**
     * Whether {@code keys[0, end)} holds the token {@code source[from, from + length)} as a whole space-separated
     * entry, so a key repeated in one message (or equal to its unique id) is indexed once.
     */
    private static boolean hasToken(String keys, int end, String source, int from, int length) {
        int start = 0;
        for (int i = 0; i <= end; i++) {
            if (i == end || keys.charAt(i) == KEY_SEPARATOR) {
                if (i - start == length && keys.regionMatches(start, source, from, length)) {
                    return true;
                }
                start = i + 1;
            }
        }
        return false;
    }

    private void put(int keyHash, long phyOffset, long storeTimestamp) {
        IndexFile file = current;
        if (file == null) {
            file = newestFile();
        }
        if (file == null || file.isFull()) {
            file = newFile();
        }
        if (file != null && !file.put(keyHash, phyOffset, storeTimestamp)) {
            file = newFile();
            if (file != null) {
                file.put(keyHash, phyOffset, storeTimestamp);
            }
        }
        current = file;
    }

    private IndexFile newestFile() {
        IndexFile[] snapshot = files.toArray(new IndexFile[0]);
        return snapshot.length == 0 ? null : snapshot[snapshot.length - 1];
    }

    private IndexFile newFile() {
        long millis = Math.max(System.currentTimeMillis(), lastFileMillis + 1);
        try {
            Files.createDirectories(indexDir);
            Path path = indexDir.resolve(fileName(millis));
            while (Files.exists(path)) {
                path = indexDir.resolve(fileName(++millis));
            }
            IndexFile file = IndexFile.create(path, maxHashSlotNum, maxIndexNum);
            files.add(file);
            lastFileMillis = millis;
            return file;
        } catch (IOException e) {
            // the dispatcher retries this message and the store refuses new ones until an index file can be made
            throw new java.io.UncheckedIOException("Could not create an index file in " + indexDir + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * The commit-log offsets of messages of {@code topic} whose key (a KEYS entry or the unique id) may be
     * {@code key}, stored between {@code begin} and {@code end} (epoch millis, inclusive, at second precision),
     * newest first, at most {@code maxNum}. The caller must re-check topic and key on each message: different
     * keys can share a hash.
     *
     * @throws IllegalArgumentException when the topic or key is empty, maxNum is not positive or begin is after
     *                                  end
     */
    public QueryOffsetResult queryOffset(String topic, String key, int maxNum, long begin, long end) {
        if (topic == null || topic.isEmpty()) {
            throw new IllegalArgumentException("Query by key needs a topic; give the topic the message was sent to.");
        }
        if (key == null || key.isEmpty()) {
            throw new IllegalArgumentException("Query by key needs a non-empty key (a KEYS entry or a message id).");
        }
        if (maxNum <= 0) {
            throw new IllegalArgumentException("Query by key needs a positive maximum number of results, got "
                    + maxNum + ".");
        }
        if (begin > end) {
            throw new IllegalArgumentException("The query's begin time " + begin + " is after its end time " + end
                    + "; give begin <= end (epoch milliseconds).");
        }
        int keyHash = IndexKey.hash(topic, key);
        IndexFile[] snapshot = files.toArray(new IndexFile[0]);
        List<Long> offsets = new ArrayList<>();
        for (int i = snapshot.length - 1; i >= 0 && offsets.size() < maxNum; i--) {
            snapshot[i].collect(keyHash, begin, end, maxNum, offsets);
        }
        if (snapshot.length == 0) {
            return new QueryOffsetResult(offsets, 0, 0);
        }
        IndexFile newest = snapshot[snapshot.length - 1];
        return new QueryOffsetResult(offsets, newest.endTimestamp(), newest.endPhyOffset());
    }

    /** Forces every file changed since the last flush. */
    public void flush() {
        files.forEach(IndexFile::flush);
    }

    /**
     * Deletes the oldest files whose entries all point below {@code minPhyOffset} (the oldest offset the commit
     * log still holds); never the newest file. A query still reading a deleted file keeps its mapping until it
     * is done.
     */
    public void deleteExpiredFile(long minPhyOffset) {
        IndexFile[] snapshot = files.toArray(new IndexFile[0]);
        List<IndexFile> expired = new ArrayList<>();
        for (int i = 0; i < snapshot.length - 1 && snapshot[i].endPhyOffset() < minPhyOffset; i++) {
            expired.add(snapshot[i]);
        }
        if (expired.isEmpty()) {
            return;
        }
        files.removeAll(expired);
        expired.forEach(IndexService::discard);
        log.info("Deleted {} index file(s) below commit-log offset {}", expired.size(), minPhyOffset);
    }

    /**
     * Removes every entry at or past {@code maxPhyOffset}, the commit log's valid end after an unclean stop,
     * and lowers {@link #lastIndexedPhyOffset()} below it so the store's re-dispatch indexes the records from
     * there again. Entries are in commit-log order, so the dirty ones are the newest: newer files that hold only
     * dirty entries are deleted, and in the file where the valid part ends the dirty units are unlinked in
     * reverse order of their appends, which restores exactly the slots and chains that existed before them. Cost
     * is proportional to the removed entries, and queries need no filter afterwards.
     */
    public void truncate(long maxPhyOffset) {
        IndexFile[] snapshot = files.toArray(new IndexFile[0]);
        int removedFiles = 0;
        for (int i = snapshot.length - 1; i >= 0; i--) {
            IndexFile file = snapshot[i];
            if (file.indexCount() == 0) {
                continue;
            }
            if (file.endPhyOffset() < maxPhyOffset) {
                break;
            }
            if (file.beginPhyOffset() >= maxPhyOffset && i > 0) {
                files.remove(file);
                discard(file);
                removedFiles++;
                continue;
            }
            file.truncate(maxPhyOffset);
            if (file.beginPhyOffset() < maxPhyOffset) {
                break;
            }
        }
        current = null;
        long before = lastIndexedPhyOffset;
        lastIndexedPhyOffset = computeLastIndexed();
        if (removedFiles > 0 || before != lastIndexedPhyOffset) {
            log.info("Index truncated at commit-log offset {}: {} file(s) deleted, last indexed offset now {}",
                    maxPhyOffset, removedFiles, lastIndexedPhyOffset);
        }
    }

    private static void discard(IndexFile file) {
        if (!file.destroy(0)) {
            // a query still holds it: unlink now, the mapping goes with the query's release
            try {
                Files.deleteIfExists(file.path());
            } catch (IOException e) {
                log.warn("Could not delete index file {}: {}", file.path(), e.toString());
            }
        }
    }

    private long computeLastIndexed() {
        IndexFile[] snapshot = files.toArray(new IndexFile[0]);
        for (int i = snapshot.length - 1; i >= 0; i--) {
            if (snapshot[i].indexCount() > 0) {
                return snapshot[i].endPhyOffset();
            }
        }
        return -1;
    }

    /**
     * Commit-log offset of the last message the index files hold, -1 when they hold none (unlike
     * {@link #lastIndexedPhyOffset()}, which also counts messages without keys, it can be told from the files
     * alone, so a start can compare it with what a manifest recorded).
     */
    public long lastStoredPhyOffset() {
        return computeLastIndexed();
    }

    /**
     * Deletes every index file (the loaded ones and any other file named like one), so the index can be built
     * again from the commit log. Before dispatching starts.
     */
    public void destroyAll() {
        for (IndexFile file : files) {
            discard(file);
        }
        files.clear();
        current = null;
        lastIndexedPhyOffset = -1;
        if (!Files.isDirectory(indexDir)) {
            return;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(indexDir)) {
            for (Path p : stream) {
                if (parseFileName(p.getFileName().toString()) != Long.MIN_VALUE) {
                    Files.deleteIfExists(p);
                }
            }
        } catch (IOException e) {
            log.warn("Could not delete every old index file in {}: {}", indexDir, e.toString());
        }
    }

    /** Commit-log offset of the last indexed message, -1 when nothing is indexed. */
    public long lastIndexedPhyOffset() {
        return lastIndexedPhyOffset;
    }

    /** Number of index files, for tests and metrics. */
    int fileCount() {
        return files.size();
    }

    /** The files, oldest first (tests). */
    List<IndexFile> files() {
        return List.copyOf(files);
    }

    /** Flushes and unmaps every file. */
    public void shutdown() {
        files.forEach(IndexFile::shutdown);
        files.clear();
        current = null;
    }
}
