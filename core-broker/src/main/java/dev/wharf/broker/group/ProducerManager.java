package dev.wharf.broker.group;

import dev.wharf.remoting.RemotingChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Producer groups and the live channels of their members, from heartbeats. The transaction check-back asks a
 * live member of a half message's producer group through {@link #producerChannels(String)}. Thread-safe.
 */
public final class ProducerManager {

    private static final Logger log = LoggerFactory.getLogger(ProducerManager.class);

    private final ConcurrentHashMap<String, ConcurrentHashMap<RemotingChannel, ClientChannelInfo>> groups =
            new ConcurrentHashMap<>();

    /** Adds or refreshes a member (one heartbeat entry); true when it is new to the group. */
    public boolean registerProducer(String group, ClientChannelInfo client, long now) {
        boolean[] joined = new boolean[1];
        groups.compute(group, (name, members) -> {
            ConcurrentHashMap<RemotingChannel, ClientChannelInfo> m = members != null ? members : new ConcurrentHashMap<>();
            ClientChannelInfo existing = m.get(client.channel());
            if (existing != null && existing.clientId().equals(client.clientId())) {
                existing.touch(now);
            } else {
                m.put(client.channel(), client);
                joined[0] = true;
            }
            return m;
        });
        if (joined[0]) {
            log.debug("Producer {} joined group {}", client, group);
        }
        return joined[0];
    }

    /** A client leaves a producer group (UNREGISTER_CLIENT). */
    public void unregisterProducer(String group, RemotingChannel channel) {
        groups.computeIfPresent(group, (name, members) -> {
            members.remove(channel);
            return members.isEmpty() ? null : members;
        });
    }

    /** A channel closed: its client leaves every producer group. */
    public void channelClosed(RemotingChannel channel) {
        for (String group : new ArrayList<>(groups.keySet())) {
            unregisterProducer(group, channel);
        }
    }

    /** Drops members whose last heartbeat is older than {@code expiredBefore}, closing their channels. */
    public List<ClientChannelInfo> scanExpired(long expiredBefore) {
        List<ClientChannelInfo> dropped = new ArrayList<>();
        for (String group : new ArrayList<>(groups.keySet())) {
            groups.computeIfPresent(group, (name, members) -> {
                for (ClientChannelInfo info : members.values()) {
                    if (info.lastUpdateTimestamp() < expiredBefore && members.remove(info.channel(), info)) {
                        dropped.add(info);
                    }
                }
                return members.isEmpty() ? null : members;
            });
        }
        for (ClientChannelInfo gone : dropped) {
            log.warn("Producer {} sent no heartbeat since {}; dropping it", gone, gone.lastUpdateTimestamp());
            gone.channel().close();
        }
        return dropped;
    }

    /** The open channels of the group's members, for calls back to a producer; empty when none. */
    public List<RemotingChannel> producerChannels(String group) {
        ConcurrentHashMap<RemotingChannel, ClientChannelInfo> members = groups.get(group);
        if (members == null) {
            return List.of();
        }
        List<RemotingChannel> out = new ArrayList<>(members.size());
        for (RemotingChannel channel : members.keySet()) {
            if (channel.isActive()) {
                out.add(channel);
            }
        }
        return out;
    }

    /** The group's members, a snapshot. */
    public List<ClientChannelInfo> members(String group) {
        ConcurrentHashMap<RemotingChannel, ClientChannelInfo> members = groups.get(group);
        return members == null ? List.of() : new ArrayList<>(members.values());
    }

    /** Groups with at least one member. */
    public Set<String> groups() {
        return new TreeSet<>(groups.keySet());
    }
}
