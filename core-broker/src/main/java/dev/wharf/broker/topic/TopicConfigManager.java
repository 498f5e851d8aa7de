package dev.wharf.broker.topic;

import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.TopicValidator;
import dev.wharf.protocol.body.RouteData;
import dev.wharf.protocol.body.TopicConfig;
import dev.wharf.protocol.body.TopicPerm;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The topics this broker serves. Lookups (one per send and pull) read a concurrent map without locking;
 * changes are rare, take one lock, are written to disk at once and bump the {@link DataVersion}, and then
 * tell the listeners (registration with the NameServers, clean-up of a deleted topic's queues and offsets).
 */
public final class TopicConfigManager {

    /** Most queues a topic may have; every queue is a folder of files on disk. */
    public static final int MAX_QUEUE_NUMS = 1024;

    private static final Logger log = LoggerFactory.getLogger(TopicConfigManager.class);

    /** Told about changes, after they are applied and persisted, on the thread that made them. */
    public interface Listener {

        /** Some topic was created, updated or deleted. */
        void topicsChanged();

        /** A topic was deleted (called before {@link #topicsChanged()}). */
        default void topicDeleted(String topic) {
        }
    }

    /** The persisted document. */
    public record TopicsDocument(Map<String, TopicConfig> topicConfigTable, RouteData.DataVersion dataVersion) {
    }

    private final Map<String, TopicConfig> topics = new ConcurrentHashMap<>();
    private final DataVersion dataVersion = new DataVersion();
    private final ReentrantLock changeLock = new ReentrantLock();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();
    private final JsonConfigFile<TopicsDocument> file;
    private final int defaultTopicQueueNums;
    private final boolean autoCreateTopicEnable;
    private final int scheduleQueueNums;

    /**
     * @param file                  where the table is persisted (null = memory only)
     * @param defaultTopicQueueNums queues of an auto-created topic
     * @param autoCreateTopicEnable whether a send may create an unknown topic
     * @param scheduleQueueNums     queues of the schedule topic (one per delay level)
     */
    public TopicConfigManager(JsonConfigFile<TopicsDocument> file, int defaultTopicQueueNums,
                              boolean autoCreateTopicEnable, int scheduleQueueNums) {
        this.file = file;
        this.defaultTopicQueueNums = defaultTopicQueueNums;
        this.autoCreateTopicEnable = autoCreateTopicEnable;
        this.scheduleQueueNums = scheduleQueueNums;
    }

    public void addListener(Listener listener) {
        listeners.add(listener);
    }

    /**
     * Loads the persisted table (if any) and makes sure the internal topics exist.
     *
     * @throws IOException the file exists but neither it nor its backup is readable
     */
    public void load() throws IOException {
        changeLock.lock();
        try {
            TopicsDocument doc = file == null ? null : file.load();
            if (doc != null) {
                if (doc.topicConfigTable() != null) {
                    doc.topicConfigTable().forEach((name, config) -> {
                        if (config != null && TopicValidator.check(name) == null) {
                            topics.put(name, config);
                        } else {
                            log.warn("Skipping invalid topic entry \"{}\" in {}", name, file.path());
                        }
                    });
                }
                if (doc.dataVersion() != null) {
                    dataVersion.set(doc.dataVersion());
                }
                log.info("Loaded {} topics from {}", topics.size(), file.path());
            }
            boolean changed = ensureSystemTopic(SystemTopics.SCHEDULE_TOPIC, scheduleQueueNums);
            changed |= ensureSystemTopic(SystemTopics.TRANS_HALF_TOPIC, 1);
            changed |= ensureSystemTopic(SystemTopics.TRANS_OP_HALF_TOPIC, 1);
            changed |= ensureSystemTopic(SystemTopics.TRANS_CHECK_MAX_TIME_TOPIC, 1);
            changed |= ensureSystemTopic(SystemTopics.ACK_LOG_TOPIC, 1);
            changed |= ensureAutoCreateRoute();
            if (changed) {
                dataVersion.next();
                persistLocked();
            }
        } finally {
            changeLock.unlock();
        }
    }

    private boolean ensureSystemTopic(String name, int queueNums) {
        TopicConfig existing = topics.get(name);
        if (existing != null && existing.readQueueNums() >= queueNums && existing.writeQueueNums() >= queueNums) {
            return false;
        }
        topics.put(name, new TopicConfig(name, queueNums));
        return true;
    }

    /**
     * Serves the auto-create route ({@link SystemTopics#AUTO_CREATE_TOPIC_KEY}) exactly while sends may create
     * topics: a RocketMQ producer finds this broker through it for a topic nobody serves yet.
     */
    private boolean ensureAutoCreateRoute() {
        String name = SystemTopics.AUTO_CREATE_TOPIC_KEY;
        TopicConfig existing = topics.get(name);
        if (!autoCreateTopicEnable) {
            return topics.remove(name) != null;
        }
        if (existing != null && (existing.perm() & TopicPerm.INHERIT) != 0) {
            return false;
        }
        topics.put(name, new TopicConfig(name, defaultTopicQueueNums, defaultTopicQueueNums,
                TopicPerm.READ | TopicPerm.WRITE | TopicPerm.INHERIT, 0, false));
        return true;
    }

    /** The topic's configuration, or null when this broker does not serve it. */
    public TopicConfig find(String topic) {
        return topics.get(topic);
    }

    /** A sorted snapshot of every topic. */
    public Map<String, TopicConfig> all() {
        return new TreeMap<>(topics);
    }

    public RouteData.DataVersion dataVersion() {
        return dataVersion.current();
    }

    /** Whether sends may create unknown topics. */
    public boolean isAutoCreateTopicEnable() {
        return autoCreateTopicEnable;
    }

    /**
     * The topic a client sends to: the existing one, or a new one when auto-creation is on. Retry and
     * dead-letter topics are created with one queue; others with {@code requestedQueueNums} when it is in
     * 1..defaultTopicQueueNums, else with defaultTopicQueueNums.
     *
     * @return the topic, or null when it does not exist and auto-creation is off
     */
    public TopicConfig findOrCreateForSend(String topic, int requestedQueueNums) {
        TopicConfig existing = topics.get(topic);
        if (existing != null) {
            return existing;
        }
        if (SystemTopics.isRetryTopic(topic) || SystemTopics.isDlqTopic(topic)) {
            return createIfAbsent(topic, 1);
        }
        if (!autoCreateTopicEnable) {
            return null;
        }
        int queues = requestedQueueNums > 0 && requestedQueueNums < defaultTopicQueueNums
                ? requestedQueueNums : defaultTopicQueueNums;
        return createIfAbsent(topic, queues);
    }

    /**
     * Creates a read-write topic unless it exists (for retry, dead-letter and other broker-made topics);
     * returns the topic as it is now.
     */
    public TopicConfig createIfAbsent(String topic, int queueNums) {
        TopicConfig existing = topics.get(topic);
        if (existing != null) {
            return existing;
        }
        TopicValidator.validate(topic);
        changeLock.lock();
        try {
            existing = topics.get(topic);
            if (existing != null) {
                return existing;
            }
            TopicConfig created = new TopicConfig(topic, queueNums);
            topics.put(topic, created);
            dataVersion.next();
            persistQuietly();
            log.info("Created topic {} with {} queues", topic, queueNums);
        } finally {
            changeLock.unlock();
        }
        fireChanged(null);
        return topics.get(topic);
    }

    /** The retry topic of a consumer group, created on demand with one queue. */
    public TopicConfig createRetryTopicIfAbsent(String group) {
        return createIfAbsent(SystemTopics.retryTopic(group), 1);
    }

    /** The dead-letter topic of a consumer group, created on demand with one queue. */
    public TopicConfig createDlqTopicIfAbsent(String group) {
        return createIfAbsent(SystemTopics.dlqTopic(group), 1);
    }

    /**
     * Creates or replaces a topic (administration).
     *
     * @throws IllegalArgumentException a sentence naming what is wrong with the topic
     * @throws IOException              the table could not be written (the change is kept in memory)
     */
    public void update(TopicConfig config) throws IOException {
        String error = check(config);
        if (error != null) {
            throw new IllegalArgumentException(error);
        }
        changeLock.lock();
        try {
            topics.put(config.topicName(), config);
            dataVersion.next();
            persistLocked();
        } finally {
            changeLock.unlock();
        }
        log.info("Topic {} set to {} read / {} write queues, perm {}", config.topicName(), config.readQueueNums(),
                config.writeQueueNums(), TopicPerm.toString(config.perm()));
        fireChanged(null);
    }

    /** Why an administrator's topic cannot be accepted, or null when it can. */
    public static String check(TopicConfig config) {
        if (config == null) {
            return "No topic was given.";
        }
        String nameError = TopicValidator.check(config.topicName());
        if (nameError != null) {
            return nameError;
        }
        if (SystemTopics.isInternal(config.topicName())) {
            return "The topic " + config.topicName() + " is internal to the broker and cannot be changed; choose"
                    + " another name.";
        }
        if (config.readQueueNums() < 1 || config.readQueueNums() > MAX_QUEUE_NUMS
                || config.writeQueueNums() < 1 || config.writeQueueNums() > MAX_QUEUE_NUMS) {
            return "The topic " + config.topicName() + " asks for " + config.readQueueNums() + " read and "
                    + config.writeQueueNums() + " write queues; each must be from 1 to " + MAX_QUEUE_NUMS + ".";
        }
        int allBits = TopicPerm.READ | TopicPerm.WRITE | TopicPerm.INHERIT;
        if ((config.perm() & ~allBits) != 0) {
            return "The topic " + config.topicName() + " has permission bits " + config.perm() + "; use a sum of "
                    + TopicPerm.READ + " (read), " + TopicPerm.WRITE + " (write) and " + TopicPerm.INHERIT + ".";
        }
        return null;
    }

    /**
     * Deletes a topic (administration); its queues and offsets go with it through the listeners.
     *
     * @return whether the topic existed
     * @throws IllegalArgumentException for an internal topic
     * @throws IOException              the table could not be written (the change is kept in memory)
     */
    public boolean delete(String topic) throws IOException {
        if (SystemTopics.isInternal(topic)) {
            throw new IllegalArgumentException("The topic " + topic + " is internal to the broker and cannot be"
                    + " deleted.");
        }
        boolean existed;
        changeLock.lock();
        try {
            existed = topics.remove(topic) != null;
            if (existed) {
                dataVersion.next();
                persistLocked();
            }
        } finally {
            changeLock.unlock();
        }
        if (existed) {
            log.info("Deleted topic {}", topic);
        }
        fireChanged(topic);
        return existed;
    }

    /** Writes the table now. */
    public void persist() throws IOException {
        changeLock.lock();
        try {
            persistLocked();
        } finally {
            changeLock.unlock();
        }
    }

    private void persistLocked() throws IOException {
        if (file != null) {
            file.persist(new TopicsDocument(new TreeMap<>(topics), dataVersion.current()));
        }
    }

    /** On the send path a failed write must not fail the send: the topic is served from memory. */
    private void persistQuietly() {
        try {
            persistLocked();
        } catch (IOException e) {
            log.warn("Could not write the topic table to {}: {}; the change is kept in memory", file.path(),
                    e.getMessage());
        }
    }

    private void fireChanged(String deletedTopic) {
        for (Listener listener : listeners) {
            try {
                if (deletedTopic != null) {
                    listener.topicDeleted(deletedTopic);
                }
                listener.topicsChanged();
            } catch (RuntimeException e) {
                log.warn("Topic change listener {} failed: {}", listener, e.toString());
            }
        }
    }
}
