package dev.wharf.broker.group;

import dev.wharf.protocol.body.ConsumerModel.ConsumeFromWhere;
import dev.wharf.protocol.body.ConsumerModel.ConsumeType;
import dev.wharf.protocol.body.ConsumerModel.MessageModel;
import dev.wharf.protocol.body.Heartbeat.SubscriptionData;
import dev.wharf.remoting.RemotingChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One consumer group as its members' heartbeats describe it: members by channel, how they consume and what
 * they subscribe to. Reads (per pull: the subscription of a topic) are lock-free; changes come from
 * {@link ConsumerManager} under its per-group lock.
 */
public final class ConsumerGroupInfo {

    private final String groupName;
    private final ConcurrentHashMap<RemotingChannel, ClientChannelInfo> members = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, SubscriptionData> subscriptions = new ConcurrentHashMap<>();
    private volatile ConsumeType consumeType;
    private volatile MessageModel messageModel;
    private volatile ConsumeFromWhere consumeFromWhere;

    ConsumerGroupInfo(String groupName) {
        this.groupName = groupName;
    }

    public String groupName() {
        return groupName;
    }

    public ConsumeType consumeType() {
        return consumeType;
    }

    public MessageModel messageModel() {
        return messageModel;
    }

    public ConsumeFromWhere consumeFromWhere() {
        return consumeFromWhere;
    }

    /** The group's subscription of a topic, or null. */
    public SubscriptionData subscription(String topic) {
        return subscriptions.get(topic);
    }

    /** Every subscription, by topic (a snapshot). */
    public Map<String, SubscriptionData> subscriptions() {
        return new HashMap<>(subscriptions);
    }

    /** The members now (a snapshot). */
    public List<ClientChannelInfo> members() {
        return new ArrayList<>(members.values());
    }

    /** The members' client ids, sorted (the order every member allocates queues by). */
    public List<String> clientIds() {
        return members.values().stream().map(ClientChannelInfo::clientId).distinct().sorted().toList();
    }

    public ClientChannelInfo member(RemotingChannel channel) {
        return members.get(channel);
    }

    public boolean isEmpty() {
        return members.isEmpty();
    }

    /** Adds or refreshes a member; true when it is new to the group. */
    boolean updateMember(ClientChannelInfo info, ConsumeType type, MessageModel model, ConsumeFromWhere from,
                         long now) {
        consumeType = type;
        messageModel = model;
        consumeFromWhere = from;
        ClientChannelInfo existing = members.get(info.channel());
        if (existing != null && existing.clientId().equals(info.clientId())) {
            existing.touch(now);
            return false;
        }
        members.put(info.channel(), info);
        return true;
    }

    /** Replaces the subscriptions with a heartbeat's; true when a topic was added or removed. */
    boolean updateSubscriptions(Set<SubscriptionData> latest) {
        boolean changed = false;
        Map<String, SubscriptionData> byTopic = new HashMap<>();
        if (latest != null) {
            for (SubscriptionData sub : latest) {
                if (sub != null && sub.topic() != null) {
                    byTopic.put(sub.topic(), sub);
                }
            }
        }
        for (Map.Entry<String, SubscriptionData> e : byTopic.entrySet()) {
            SubscriptionData old = subscriptions.get(e.getKey());
            if (old == null) {
                changed = true;
                subscriptions.put(e.getKey(), e.getValue());
            } else if (e.getValue().subVersion() > old.subVersion() || !sameExpression(old, e.getValue())) {
                subscriptions.put(e.getKey(), e.getValue());
            }
        }
        changed |= subscriptions.keySet().removeIf(topic -> !byTopic.containsKey(topic));
        return changed;
    }

    private static boolean sameExpression(SubscriptionData a, SubscriptionData b) {
        return java.util.Objects.equals(a.subString(), b.subString())
                && java.util.Objects.equals(a.expressionType(), b.expressionType());
    }

    ClientChannelInfo removeMember(RemotingChannel channel) {
        return members.remove(channel);
    }

    /** Removes members whose last heartbeat is older than {@code expiredBefore}; returns them. */
    List<ClientChannelInfo> removeExpired(long expiredBefore) {
        List<ClientChannelInfo> expired = new ArrayList<>();
        for (ClientChannelInfo info : members.values()) {
            if (info.lastUpdateTimestamp() < expiredBefore && members.remove(info.channel(), info)) {
                expired.add(info);
            }
        }
        return expired;
    }
}
