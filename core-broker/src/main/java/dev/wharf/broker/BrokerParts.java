package dev.wharf.broker;

import dev.wharf.broker.config.BrokerConfig;
import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.broker.filter.SubscriptionCache;
import dev.wharf.broker.group.ConsumerManager;
import dev.wharf.broker.group.ConsumerNotifier;
import dev.wharf.broker.group.ExclusiveClaims;
import dev.wharf.broker.group.ProducerManager;
import dev.wharf.broker.group.SubscriptionGroupConfig;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.lock.RebalanceLockManager;
import dev.wharf.broker.offset.ConsumerOffsetManager;
import dev.wharf.broker.offset.PullTracker;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.store.MessageStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The broker's state holders, built from the configuration and connected to each other: topics, offsets,
 * group settings, members, locks and the small caches of the pull path. State files live in
 * {@code {storePathRootDir}/config}.
 */
final class BrokerParts {

    final TopicConfigManager topics;
    final ConsumerOffsetManager offsets;
    final SubscriptionGroupManager subscriptionGroups;
    final ConsumerManager consumers;
    final ProducerManager producers = new ProducerManager();
    final ExclusiveClaims claims = new ExclusiveClaims();
    final RebalanceLockManager locks;
    final ConsumerNotifier notifier;
    final PullTracker pullTracker = new PullTracker();
    final SubscriptionCache subscriptionCache = new SubscriptionCache();

    BrokerParts(BrokerConfig config, Path storeRoot, MessageStore store, LongSupplier clock) {
        topics = new TopicConfigManager(
                JsonConfigFile.inConfigDir(storeRoot, "topics.json", TopicConfigManager.TopicsDocument.class),
                config.getDefaultTopicQueueNums(), config.isAutoCreateTopicEnable(),
                config.schedule().delayLevelCount() + 1); // one queue per delay level and the timer queue
        offsets = new ConsumerOffsetManager(
                JsonConfigFile.inConfigDir(storeRoot, "consumerOffset.json", ConsumerOffsetManager.OffsetsDocument.class),
                config.getOffsetResetGuardMillis());
        subscriptionGroups = new SubscriptionGroupManager(
                JsonConfigFile.inConfigDir(storeRoot, "subscriptionGroup.json",
                        SubscriptionGroupManager.GroupsDocument.class),
                config.isAutoCreateSubscriptionGroup(), config.getMaxReconsumeTimes());
        locks = new RebalanceLockManager(config.getRebalanceLockMaxLiveTime(), clock);
        notifier = new ConsumerNotifier(group -> {
            SubscriptionGroupConfig groupConfig = subscriptionGroups.find(group);
            return groupConfig == null || groupConfig.notifyConsumerIdsChangedEnable();
        });
        consumers = new ConsumerManager((group, members, left) -> {
            if (left != null) {
                locks.unlockAll(group, left.clientId());
            }
            notifier.membersChanged(group, members, left);
        });
        topics.addListener(new TopicConfigManager.Listener() {
            @Override
            public void topicsChanged() {
            }

            @Override
            public void topicDeleted(String topic) {
                store.deleteTopics(Set.of(topic));
                offsets.removeTopic(topic);
                pullTracker.removeTopic(topic);
                subscriptionCache.removeTopic(topic);
            }
        });
    }

    /** Loads every state file (after the store started). */
    void load() throws IOException {
        topics.load();
        offsets.load();
        subscriptionGroups.load();
    }

    /** Writes every state file. */
    void persist() throws IOException {
        offsets.persist();
        topics.persist();
        subscriptionGroups.persist();
    }
}
