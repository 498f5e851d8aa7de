package dev.wharf.store.queue;

import dev.wharf.common.TopicValidator;
import dev.wharf.store.file.MappedFile;
import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table of every consume queue: topic to queue id to {@link ConsumeQueue}, kept under
 * {@code {rootDir}/{topic}/{queueId}/}.
 *
 * <p>Queues open lazily: a start registers them (from the {@link QueueManifest} or by listing the
 * directories) without mapping any file, and the {@link QueueMappings} budget keeps at most
 * {@code maxMapped} of them mapped at once. So the cost of a start and the memory of the store do not grow
 * with the number of queues beyond a few dozen bytes each.
 *
 * <p>Thread-safety: the table is a pair of {@link ConcurrentHashMap}s, so {@link #find} and
 * {@link #findOrCreate} never block each other. The bulk operations run on their owners' threads: the flush
 * thread ({@link #flush(int)}), the clean-up thread ({@link #deleteExpired(long)}); {@link #load()},
 * {@link #restore}, {@link #recover()} and {@link #truncateDirty(long)} run at start-up before dispatching
 * begins, and {@link #deleteTopic(String)} must not race a dispatch of the same topic (a put after it would
 * create the queue again).
 */
public final class ConsumeQueueStore {

    private static final Logger log = LoggerFactory.getLogger(ConsumeQueueStore.class);

    /** Default of {@code maxMappedConsumeQueues}. */
    public static final int DEFAULT_MAX_MAPPED = 8_192;
    /** Default of {@code consumeQueueIdleUnmapMillis}. */
    public static final long DEFAULT_IDLE_UNMAP_MILLIS = 300_000;

    private static final String FIRST_FILE_NAME = MappedFile.fileName(0);

    private final Path rootDir;
    private final int mappedFileSize;
    private final ConcurrentMap<String, ConcurrentMap<Integer, ConsumeQueue>> table = new ConcurrentHashMap<>();
    private final QueueMappings mappings;
    /** The commit log's end after an unclean stop: queues found on disk later drop units beyond it when opened. */
    private volatile long recoveredEnd = Long.MAX_VALUE;

    /**
     * A store with the default budget of mapped queues.
     *
     * @param rootDir                    the {@code consumequeue} directory
     * @param mappedFileSizeConsumeQueue bytes per queue file, a positive multiple of 20
     *                                   ({@link ConsumeQueueUnit#DEFAULT_FILE_SIZE} by default)
     */
    public ConsumeQueueStore(Path rootDir, int mappedFileSizeConsumeQueue) {
        this(rootDir, mappedFileSizeConsumeQueue, DEFAULT_MAX_MAPPED, DEFAULT_IDLE_UNMAP_MILLIS);
    }

    /**
     * @param maxMapped  queues whose files may be mapped at once ({@code maxMappedConsumeQueues})
     * @param idleMillis a queue unused this long is unmapped by the flush thread
     *                   ({@code consumeQueueIdleUnmapMillis})
     */
    public ConsumeQueueStore(Path rootDir, int mappedFileSizeConsumeQueue, int maxMapped, long idleMillis) {
        ConsumeQueue.checkFileSize(mappedFileSizeConsumeQueue);
        this.rootDir = rootDir;
        this.mappedFileSize = mappedFileSizeConsumeQueue;
        this.mappings = new QueueMappings(maxMapped, idleMillis, this::queues);
    }

    public Path rootDir() {
        return rootDir;
    }

    public int mappedFileSize() {
        return mappedFileSize;
    }

    /**
     * Registers every queue directory under the root (mapping nothing) and checks its files: sizes and
     * continuity. Entries that are not a valid topic directory holding queue-id directories are skipped with a
     * warning (they were not written by the store).
     *
     * @throws IOException when a queue's files are short, missing in the middle or of another size (the
     *                     message names the first such queue)
     */
    public void load() throws IOException {
        List<ConsumeQueue> damaged = scanDisk(true);
        if (!damaged.isEmpty()) {
            throw new IOException("Consume queue files of " + damaged.get(0) + " in " + damaged.get(0).directory()
                    + " are short or missing in the middle; " + damaged.size() + " queue(s) affected.");
        }
    }

    /**
     * Registers every queue directory under the root, mapping nothing. With {@code checkFiles}, also lists each
     * queue's files and reports the queues whose files are short (a truncated file) or not continuous.
     *
     * @return the queues with damaged files (empty without {@code checkFiles})
     * @throws IOException when every file of a queue has the same size other than the configured one (the store
     *                     was written with another {@code mappedFileSizeConsumeQueue}), or a file is larger
     */
    public List<ConsumeQueue> scanDisk(boolean checkFiles) throws IOException {
        List<ConsumeQueue> damaged = new ArrayList<>();
        if (!Files.isDirectory(rootDir)) {
            return damaged;
        }
        try (DirectoryStream<Path> topics = Files.newDirectoryStream(rootDir)) {
            for (Path topicDir : topics) {
                String topic = topicDir.getFileName().toString();
                String problem = checkTopicName(topic);
                if (problem != null || !Files.isDirectory(topicDir)) {
                    log.warn("Skipping {} in the consume queue directory: {}", topicDir,
                            problem != null ? problem : "not a directory");
                    continue;
                }
                scanTopic(topic, topicDir, checkFiles, damaged);
            }
        }
        return damaged;
    }

    private void scanTopic(String topic, Path topicDir, boolean checkFiles, List<ConsumeQueue> damaged)
            throws IOException {
        try (DirectoryStream<Path> queues = Files.newDirectoryStream(topicDir)) {
            for (Path queueDir : queues) {
                String name = queueDir.getFileName().toString();
                int queueId = parseQueueId(name);
                if (queueId < 0 || !Files.isDirectory(queueDir)) {
                    log.warn("Skipping {}: not a queue-id directory (a non-negative decimal number)", queueDir);
                    continue;
                }
                ConsumeQueue queue = table.computeIfAbsent(topic, t -> new ConcurrentHashMap<>())
                        .computeIfAbsent(queueId, id -> newQueue(topic, id, true));
                if (checkFiles && !filesIntact(queueDir)) {
                    damaged.add(queue);
                }
            }
        }
    }

    /**
     * Whether a queue's files are continuous and all of the configured size. Files that all share another
     * size that is a whole number of units were written with another file size setting: that is refused.
     */
    private boolean filesIntact(Path queueDir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(queueDir)) {
            for (Path p : stream) {
                if (MappedFile.isStoreFileName(p.getFileName().toString()) && Files.isRegularFile(p)) {
                    files.add(p);
                }
            }
        }
        files.sort(null);
        long expected = -1;
        long commonSize = -1;
        boolean intact = true;
        for (Path p : files) {
            long size = Files.size(p);
            if (size > mappedFileSize) {
                throw sizeMismatch(p, size);
            }
            commonSize = commonSize == -1 || commonSize == size ? size : -2;
            long start = MappedFile.parseOffset(p.getFileName().toString());
            if (size != mappedFileSize || start % mappedFileSize != 0 || (expected >= 0 && start != expected)) {
                intact = false;
            }
            expected = start + mappedFileSize;
        }
        if (commonSize > 0 && commonSize != mappedFileSize && commonSize % ConsumeQueueUnit.SIZE == 0) {
            throw sizeMismatch(files.get(0), commonSize);
        }
        return intact;
    }

    private IOException sizeMismatch(Path p, long size) {
        return new IOException("Store file " + p + " is " + size + " bytes but the configured file size is "
                + mappedFileSize + "; start with the file size the store was written with (mappedFileSizeConsumeQueue).");
    }

    /**
     * Registers the queues of a manifest (mapping nothing). With {@code exact} (written at the clean stop this
     * start follows) each queue takes its ends from it and opens without reading its files; otherwise they are
     * lower bounds and a queue scans its files when it opens.
     *
     * @throws IOException when the manifest was written with another file size
     */
    public void restore(QueueManifest manifest, boolean exact) throws IOException {
        if (manifest.fileSize() != mappedFileSize) {
            throw new IOException("The consume queues in " + rootDir + " were written with mappedFileSizeConsumeQueue "
                    + manifest.fileSize() + " but it is configured as " + mappedFileSize
                    + "; start with the file size the store was written with.");
        }
        String topic = null;
        Path topicDir = null;
        ConcurrentMap<Integer, ConsumeQueue> queues = null;
        for (QueueManifest.Entry e : manifest.entries()) {
            // entries come grouped by topic: the name is checked and the directory resolved once per topic
            if (!e.topic().equals(topic)) {
                topic = e.topic();
                boolean valid = checkTopicName(topic) == null;
                topicDir = valid ? rootDir.resolve(topic) : null;
                queues = valid ? table.computeIfAbsent(topic, t -> new ConcurrentHashMap<>()) : null;
            }
            if (queues == null || e.queueId() < 0) {
                continue;
            }
            ConsumeQueue queue = new ConsumeQueue(topic, e.queueId(), topicDir.resolve(Integer.toString(e.queueId())),
                    mappedFileSize, mappings, true);
            queue.restoreEnds(e.minOffset(), e.firstFile(), e.end(), e.lastPhyEnd(), exact);
            queues.put(e.queueId(), queue);
        }
    }

    /**
     * The registered queues whose files the ends say should be there but are missing or short (one
     * {@code stat} per file, no mapping).
     */
    public List<ConsumeQueue> findMissingOrShort() {
        List<ConsumeQueue> all = new ArrayList<>();
        queues().forEach(all::add);
        // one stat per file; both cores, since a start with 100,000 queues waits for them
        return all.parallelStream().filter(this::missingOrShort).collect(Collectors.toList());
    }

    private boolean missingOrShort(ConsumeQueue q) {
        long first = q.firstFileByte();
        long end = q.endByte();
        if (first < 0 || end <= first) {
            return false;
        }
        String dir = q.directory().toString() + File.separatorChar;
        for (long start = first; start < end; start += mappedFileSize) {
            String name = start == 0 ? FIRST_FILE_NAME : MappedFile.fileName(start);
            // File.length is a bare stat: 0 for a missing file, which is as damaged as a short one
            long size = new File(dir + name).length();
            if (size != mappedFileSize) {
                log.warn("Consume queue {}-{}: file {} is {} (units up to {} expected)", q.topic(), q.queueId(), name,
                        size == 0 ? "missing or empty" : "short: " + size + " of " + mappedFileSize + " bytes",
                        ConsumeQueueUnit.unitIndex(end));
                return true;
            }
        }
        return false;
    }

    /**
     * Deletes what is left of {@code queue}'s files and puts an empty queue in its place, to be filled again
     * from the commit log.
     *
     * @return the new, empty queue
     */
    public ConsumeQueue resetForRebuild(ConsumeQueue queue) {
        queue.destroy();
        Path dir = queue.directory();
        if (Files.exists(dir)) {
            deleteTree(dir);
        }
        ConsumeQueue fresh = newQueue(queue.topic(), queue.queueId(), false);
        table.computeIfAbsent(queue.topic(), t -> new ConcurrentHashMap<>()).put(queue.queueId(), fresh);
        return fresh;
    }

    /** The queue id a directory name stands for, -1 when it is not the canonical decimal form. */
    static int parseQueueId(String name) {
        if (name.isEmpty() || name.length() > 10 || !name.chars().allMatch(c -> c >= '0' && c <= '9')
                || (name.length() > 1 && name.charAt(0) == '0')) {
            return -1;
        }
        long id = Long.parseLong(name);
        return id > Integer.MAX_VALUE ? -1 : (int) id;
    }

    /** Null when the topic may name a directory, else why not. */
    static String checkTopicName(String topic) {
        String problem = TopicValidator.check(topic);
        if (problem == null && (topic.equals(".") || topic.equals(".."))) {
            problem = "The topic name \"" + topic + "\" is reserved by the file system; choose another name.";
        }
        return problem;
    }

    private ConsumeQueue newQueue(String topic, int queueId, boolean onDisk) {
        ConsumeQueue queue = new ConsumeQueue(topic, queueId, queueDir(topic, queueId), mappedFileSize, mappings, onDisk);
        long end = recoveredEnd;
        if (onDisk && end != Long.MAX_VALUE) {
            queue.truncateDirtyLogicFiles(end);
        }
        return queue;
    }

    private Path queueDir(String topic, int queueId) {
        return rootDir.resolve(topic).resolve(Integer.toString(queueId));
    }

    /** Makes every queue's ends known, opening the queues whose ends are not (see {@link ConsumeQueue#recover()}). */
    public void recover() {
        forEach(ConsumeQueue::recover);
    }

    /**
     * The queue of a topic and queue id, created (with no file yet) when missing.
     *
     * @throws IllegalArgumentException when the topic name is invalid or the queue id negative
     */
    public ConsumeQueue findOrCreate(String topic, int queueId) {
        ConsumeQueue queue = find(topic, queueId);
        if (queue != null) {
            return queue;
        }
        if (queueId < 0) {
            throw new IllegalArgumentException("Queue id " + queueId + " of topic " + topic
                    + " is negative; queue ids start at 0.");
        }
        String problem = checkTopicName(topic);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        // files may be there already when the queue was not registered at start (after an unclean stop)
        return table.computeIfAbsent(topic, t -> new ConcurrentHashMap<>()).computeIfAbsent(queueId,
                id -> newQueue(topic, id, Files.isDirectory(queueDir(topic, id))));
    }

    /** The queue of a topic and queue id, or null when there is none. */
    public ConsumeQueue find(String topic, int queueId) {
        Map<Integer, ConsumeQueue> queues = table.get(topic);
        return queues == null ? null : queues.get(queueId);
    }

    /** A read-only live view of the table: topic to queue id to queue. */
    public Map<String, Map<Integer, ConsumeQueue>> all() {
        return Collections.unmodifiableMap(table);
    }

    /** Number of registered queues. */
    public int queueCount() {
        int n = 0;
        for (ConcurrentMap<Integer, ConsumeQueue> queues : table.values()) {
            n += queues.size();
        }
        return n;
    }

    /** Queues whose files are mapped now. */
    public int mappedQueueCount() {
        return mappings.openCount();
    }

    /**
     * Flushes every open queue that has at least {@code leastPages} dirty pages (0: any dirty byte), and unmaps
     * the queues idle for too long. A complete flush ({@code leastPages} 0, the one after which the checkpoint
     * moves) also forces the files of queues unmapped since the last one: one force per file, so they are
     * gathered rather than forced every round.
     */
    public void flush(int leastPages) {
        forEach(queue -> queue.flush(leastPages));
        if (leastPages == 0) {
            mappings.forceClosed();
        }
        mappings.closeIdle(System.currentTimeMillis());
    }

    /**
     * Drops, in every queue, the units pointing at or past {@code maxPhyOffset} (the commit log's valid end).
     * Queues whose ends are not known yet do it when they open, and so do queues registered later.
     */
    public void truncateDirty(long maxPhyOffset) {
        recoveredEnd = Math.min(recoveredEnd, maxPhyOffset);
        forEach(queue -> queue.truncateDirtyLogicFiles(maxPhyOffset));
    }

    /**
     * Deletes, in every queue, the files whose units all point below {@code minPhyOffset} (the oldest offset the
     * commit log still holds), never a queue's last file, then moves each min offset up to that offset.
     */
    public void deleteExpired(long minPhyOffset) {
        int deleted = 0;
        for (ConsumeQueue queue : queues()) {
            deleted += queue.deleteExpiredFiles(minPhyOffset);
        }
        if (deleted > 0) {
            log.info("Deleted {} consume queue file(s) below commit-log offset {}", deleted, minPhyOffset);
        }
    }

    /** Removes a topic: its queues are closed and their files and directories deleted. */
    public void deleteTopic(String topic) {
        Map<Integer, ConsumeQueue> queues = table.remove(topic);
        if (queues != null) {
            queues.values().forEach(ConsumeQueue::destroy);
        }
        if (checkTopicName(topic) != null) {
            return;
        }
        Path topicDir = rootDir.resolve(topic);
        if (Files.exists(topicDir)) {
            deleteTree(topicDir);
        }
        log.info("Deleted the consume queues of topic {}", topic);
    }

    /** Deletes what a queue left behind (a file still mapped by a reader is unlinked; its mapping lives on). */
    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException | RuntimeException e) {
            log.warn("Could not delete all of {}: {}", dir, e.toString());
        }
    }

    /**
     * The highest commit-log offset any queue covers ({@code phyOffset + size} of its last unit), 0 when the
     * queues are empty. Opens the queues whose ends are not known.
     */
    public long maxPhysicalOffsetCovered() {
        long max = 0;
        for (ConsumeQueue queue : queues()) {
            max = Math.max(max, queue.getLastOffset());
        }
        return max;
    }

    /**
     * A manifest of every queue's ends now. Queues whose ends are not known yet (not opened since an unclean
     * stop) give the lower bounds they were registered with.
     *
     * @param dispatchedOffset read before this call: every record below it is in the queues
     */
    public QueueManifest manifest(long dispatchedOffset, long indexedOffset, boolean clean) {
        List<QueueManifest.Entry> entries = new ArrayList<>();
        for (ConsumeQueue q : queues()) {
            entries.add(new QueueManifest.Entry(q.topic(), q.queueId(), q.minOffsetRaw(), q.firstFileByte(),
                    q.endByte(), q.lastPhyEndRaw()));
        }
        return new QueueManifest(dispatchedOffset, indexedOffset, mappedFileSize, clean, entries);
    }

    /** Flushes everything, unmaps every file and forces the files unmapped earlier. */
    public void shutdown() {
        forEach(ConsumeQueue::shutdown);
        mappings.forceClosed();
    }

    private void forEach(Consumer<ConsumeQueue> action) {
        for (ConcurrentMap<Integer, ConsumeQueue> queues : table.values()) {
            queues.values().forEach(action);
        }
    }

    /** Every registered queue (a weakly consistent live view). */
    private Iterable<ConsumeQueue> queues() {
        return () -> new Iterator<>() {
            private final Iterator<ConcurrentMap<Integer, ConsumeQueue>> topics = table.values().iterator();
            private Iterator<ConsumeQueue> current = Collections.emptyIterator();

            @Override
            public boolean hasNext() {
                while (!current.hasNext() && topics.hasNext()) {
                    current = topics.next().values().iterator();
                }
                return current.hasNext();
            }

            @Override
            public ConsumeQueue next() {
                hasNext();
                return current.next();
            }
        };
    }
}
