package dev.wharf.broker.group;

import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.protocol.body.ConsumerModel.ConsumeType;
import dev.wharf.protocol.body.ConsumerModel.MessageModel;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import dev.wharf.remoting.RemotingChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Consumer groups and their members. Heartbeats add and refresh members; an unregister, a closed channel or a
 * missed heartbeat deadline removes them. Every membership change is reported to the
 * {@link ConsumerIdsChangeListener} (which tells the remaining members to rebalance).
 *
 * <p>Thread-safe. Changes to one group run inside the map's per-key compute, so a group is never dropped
 * while a heartbeat is adding to it; lookups on the pull path take no lock.
 */
public final class ConsumerManager {

    private static final Logger log = LoggerFactory.getLogger(ConsumerManager.class);

    private final ConcurrentHashMap<String, ConsumerGroupInfo> groups = new ConcurrentHashMap<>();
    private final ConsumerIdsChangeListener listener;

    public ConsumerManager(ConsumerIdsChangeListener listener) {
        this.listener = Objects.requireNonNull(listener, "listener");
    }

    /**
     * Adds or refreshes a member of a group (one heartbeat entry).
     *
     * @return whether the group's membership changed (a new member)
     */
    public boolean registerConsumer(String group, ClientChannelInfo client, ConsumeType consumeType,
                                    MessageModel messageModel, ConsumeFromWhere consumeFromWhere,
                                    Set<SubscriptionData> subscriptions, long now) {
        boolean[] joined = new boolean[1];
        ConsumerGroupInfo info = groups.compute(group, (name, existing) -> {
            ConsumerGroupInfo g = existing != null ? existing : new ConsumerGroupInfo(name);
            joined[0] = g.updateMember(client, consumeType, messageModel, consumeFromWhere, now);
            g.updateSubscriptions(subscriptions);
            return g;
        });
        if (joined[0]) {
            log.info("Consumer {} joined group {} ({} members)", client, group, info.clientIds().size());
            listener.membersChanged(group, info.members(), null);
        }
        return joined[0];
    }

    /** A client leaves a group (UNREGISTER_CLIENT). */
    public void unregisterConsumer(String group, RemotingChannel channel) {
        ClientChannelInfo[] left = new ClientChannelInfo[1];
        ConsumerGroupInfo info = groups.computeIfPresent(group, (name, g) -> {
            left[0] = g.removeMember(channel);
            return g.isEmpty() ? null : g;
        });
        if (left[0] != null) {
            log.info("Consumer {} left group {}", left[0], group);
            listener.membersChanged(group, info == null ? List.of() : info.members(), left[0]);
        }
    }

    /** A channel closed: its client leaves every group it was in. */
    public void channelClosed(RemotingChannel channel) {
        for (String group : new ArrayList<>(groups.keySet())) {
            unregisterConsumer(group, channel);
        }
    }

    /**
     * Drops members whose last heartbeat is older than {@code expiredBefore}, closing their channels.
     *
     * @return the members dropped
     */
    public List<ClientChannelInfo> scanExpired(long expiredBefore) {
        List<ClientChannelInfo> dropped = new ArrayList<>();
        for (String group : new ArrayList<>(groups.keySet())) {
            List<ClientChannelInfo> expired = new ArrayList<>();
            ConsumerGroupInfo info = groups.computeIfPresent(group, (name, g) -> {
                expired.addAll(g.removeExpired(expiredBefore));
                return g.isEmpty() ? null : g;
            });
            for (ClientChannelInfo gone : expired) {
                log.warn("Consumer {} of group {} sent no heartbeat since {}; dropping it", gone, group,
                        gone.lastUpdateTimestamp());
                gone.channel().close();
                listener.membersChanged(group, info == null ? List.of() : info.members(), gone);
            }
            dropped.addAll(expired);
        }
        return dropped;
    }

    /** The group, or null when it has no member. */
    public ConsumerGroupInfo group(String group) {
        return groups.get(group);
    }

    /** The subscription the group's members declared for the topic, or null. */
    public SubscriptionData findSubscription(String group, String topic) {
        ConsumerGroupInfo info = groups.get(group);
        return info == null ? null : info.subscription(topic);
    }

    /** The client ids of the group's members, sorted; empty when none. */
    public List<String> consumerIds(String group) {
        ConsumerGroupInfo info = groups.get(group);
        return info == null ? List.of() : info.clientIds();
    }

    /** Groups with at least one member. */
    public Set<String> groups() {
        return new TreeSet<>(groups.keySet());
    }
}
