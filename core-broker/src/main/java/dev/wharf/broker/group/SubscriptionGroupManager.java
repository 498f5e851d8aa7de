package dev.wharf.broker.group;

import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.common.TopicValidator;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-group settings ({@link SubscriptionGroupConfig}), persisted as {@code config/subscriptionGroup.json}.
 * A group is created with defaults on its first heartbeat or pull when auto-creation is on. Thread-safe:
 * lookups are lock-free; changes are written to disk at once.
 */
public final class SubscriptionGroupManager {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionGroupManager.class);

    /** The persisted document. */
    public record GroupsDocument(Map<String, SubscriptionGroupConfig> subscriptionGroupTable) {
    }

    private final ConcurrentHashMap<String, SubscriptionGroupConfig> groups = new ConcurrentHashMap<>();
    private final JsonConfigFile<GroupsDocument> file;
    private final boolean autoCreate;
    private final int defaultRetryMaxTimes;

    /**
     * @param file                 where settings are persisted (null = memory only)
     * @param autoCreate           whether unknown groups are created on first use
     * @param defaultRetryMaxTimes retryMaxTimes of a created group (the broker's maxReconsumeTimes)
     */
    public SubscriptionGroupManager(JsonConfigFile<GroupsDocument> file, boolean autoCreate, int defaultRetryMaxTimes) {
        this.file = file;
        this.autoCreate = autoCreate;
        this.defaultRetryMaxTimes = defaultRetryMaxTimes;
    }

    /** The group's settings, or null when the group is unknown. */
    public SubscriptionGroupConfig find(String group) {
        return groups.get(group);
    }

    /**
     * The group's settings, created with defaults when unknown and auto-creation is on.
     *
     * @return the settings, or null when the group is unknown and auto-creation is off
     */
    public SubscriptionGroupConfig findOrCreate(String group) {
        SubscriptionGroupConfig existing = groups.get(group);
        if (existing != null || !autoCreate) {
            return existing;
        }
        TopicValidator.validateGroup(group);
        boolean[] created = new boolean[1];
        SubscriptionGroupConfig config = groups.computeIfAbsent(group, g -> {
            created[0] = true;
            return SubscriptionGroupConfig.defaults(g, defaultRetryMaxTimes);
        });
        if (created[0]) {
            log.info("Created consumer group {}", group);
            try {
                persist();
            } catch (IOException e) {
                log.warn("Could not write {}: {}; the group is kept in memory", file.path(), e.getMessage());
            }
        }
        return config;
    }

    /** Whether unknown groups are created on first use. */
    public boolean isAutoCreate() {
        return autoCreate;
    }

    /** Retries of a group before dead-lettering: its own setting, else the broker default. */
    public int retryMaxTimes(String group) {
        SubscriptionGroupConfig config = groups.get(group);
        return config == null ? defaultRetryMaxTimes : config.retryMaxTimes();
    }

    /**
     * Creates or replaces a group's settings.
     *
     * @throws IllegalArgumentException a sentence naming what is wrong
     */
    public void update(SubscriptionGroupConfig config) throws IOException {
        TopicValidator.validateGroup(config.groupName());
        if (config.retryMaxTimes() < 0 || config.retryQueueNums() < 1) {
            throw new IllegalArgumentException("Group " + config.groupName() + " has retryMaxTimes "
                    + config.retryMaxTimes() + " and retryQueueNums " + config.retryQueueNums()
                    + "; use retryMaxTimes >= 0 and retryQueueNums >= 1.");
        }
        groups.put(config.groupName(), config);
        persist();
    }

    /** Removes a group's settings; true when it existed. */
    public boolean delete(String group) throws IOException {
        boolean existed = groups.remove(group) != null;
        if (existed) {
            persist();
        }
        return existed;
    }

    /** Every group's settings, sorted by name. */
    public Map<String, SubscriptionGroupConfig> all() {
        return new TreeMap<>(groups);
    }

    public void load() throws IOException {
        if (file == null) {
            return;
        }
        GroupsDocument doc = file.load();
        if (doc != null && doc.subscriptionGroupTable() != null) {
            doc.subscriptionGroupTable().forEach((name, config) -> {
                if (config != null && TopicValidator.checkGroup(name) == null) {
                    groups.put(name, config);
                }
            });
            log.info("Loaded {} consumer groups from {}", groups.size(), file.path());
        }
    }

    public synchronized void persist() throws IOException {
        if (file != null) {
            file.persist(new GroupsDocument(new TreeMap<>(groups)));
        }
    }
}
