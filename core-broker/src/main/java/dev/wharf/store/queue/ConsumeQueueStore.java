package dev.wharf.store.queue;

import dev.wharf.common.TopicValidator;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table of every consume queue: topic to queue id to {@link ConsumeQueue}, kept under
 * {@code {rootDir}/{topic}/{queueId}/}.
 *
 * <p>Thread-safety: the table is a pair of {@link ConcurrentHashMap}s, so {@link #find} and
 * {@link #findOrCreate} never block each other. The bulk operations run on their owners' threads: the flush
 * thread ({@link #flush(int)}), the clean-up thread ({@link #deleteExpired(long)}); {@link #load()},
 * {@link #recover()} and {@link #truncateDirty(long)} run at start-up before dispatching begins, and
 * {@link #deleteTopic(String)} must not race a dispatch of the same topic (a put after it would create the
 * queue again).
 */
public final class ConsumeQueueStore {

    private static final Logger log = LoggerFactory.getLogger(ConsumeQueueStore.class);

    private final Path rootDir;
    private final int mappedFileSize;
    private final ConcurrentMap<String, ConcurrentMap<Integer, ConsumeQueue>> table = new ConcurrentHashMap<>();

    /**
     * @param rootDir                    the {@code consumequeue} directory
     * @param mappedFileSizeConsumeQueue bytes per queue file, a positive multiple of 20
     *                                   ({@link ConsumeQueueUnit#DEFAULT_FILE_SIZE} by default)
     */
    public ConsumeQueueStore(Path rootDir, int mappedFileSizeConsumeQueue) {
        ConsumeQueue.checkFileSize(mappedFileSizeConsumeQueue);
        this.rootDir = rootDir;
        this.mappedFileSize = mappedFileSizeConsumeQueue;
    }

    /**
     * Opens every queue directory under the root. Entries that are not a valid topic directory holding
     * queue-id directories are skipped with a warning (they were not written by the store).
     *
     * @throws IOException when a queue's files cannot be mapped or do not fit the configured file size
     */
    public void load() throws IOException {
        if (!Files.isDirectory(rootDir)) {
            return;
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
                loadTopic(topic, topicDir);
            }
        }
    }

    private void loadTopic(String topic, Path topicDir) throws IOException {
        try (DirectoryStream<Path> queues = Files.newDirectoryStream(topicDir)) {
            for (Path queueDir : queues) {
                String name = queueDir.getFileName().toString();
                int queueId = parseQueueId(name);
                if (queueId < 0 || !Files.isDirectory(queueDir)) {
                    log.warn("Skipping {}: not a queue-id directory (a non-negative decimal number)", queueDir);
                    continue;
                }
                ConsumeQueue queue = new ConsumeQueue(topic, queueId, queueDir, mappedFileSize);
                queue.load();
                table.computeIfAbsent(topic, t -> new ConcurrentHashMap<>()).put(queueId, queue);
            }
        }
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

    /** Finds the valid end of every queue (see {@link ConsumeQueue#recover()}). */
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
        return table.computeIfAbsent(topic, t -> new ConcurrentHashMap<>()).computeIfAbsent(queueId,
                id -> new ConsumeQueue(topic, id, rootDir.resolve(topic).resolve(Integer.toString(id)),
                        mappedFileSize));
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

    /** Flushes every queue that has at least {@code leastPages} dirty pages (0: any dirty byte). */
    public void flush(int leastPages) {
        forEach(queue -> queue.flush(leastPages));
    }

    /** Drops, in every queue, the units pointing at or past {@code maxPhyOffset} (the commit log's valid end). */
    public void truncateDirty(long maxPhyOffset) {
        forEach(queue -> queue.truncateDirtyLogicFiles(maxPhyOffset));
    }

    /**
     * Deletes, in every queue, the files whose units all point below {@code minPhyOffset} (the oldest offset the
     * commit log still holds), never a queue's last file, then moves each min offset up to that offset.
     */
    public void deleteExpired(long minPhyOffset) {
        int deleted = 0;
        for (ConcurrentMap<Integer, ConsumeQueue> queues : table.values()) {
            for (ConsumeQueue queue : queues.values()) {
                deleted += queue.deleteExpiredFiles(minPhyOffset);
            }
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
     * queues are empty. Recovery compares it with the commit log's valid end.
     */
    public long maxPhysicalOffsetCovered() {
        long max = 0;
        for (ConcurrentMap<Integer, ConsumeQueue> queues : table.values()) {
            for (ConsumeQueue queue : queues.values()) {
                max = Math.max(max, queue.getLastOffset());
            }
        }
        return max;
    }

    /** Flushes everything and unmaps every file. */
    public void shutdown() {
        forEach(ConsumeQueue::shutdown);
    }

    private void forEach(Consumer<ConsumeQueue> action) {
        for (ConcurrentMap<Integer, ConsumeQueue> queues : table.values()) {
            queues.values().forEach(action);
        }
    }
}
