package dev.wharf.broker.group;

import dev.wharf.remoting.RemotingChannel;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Names that one client connection at a time may hold: a JMS client identifier, an unshared durable subscription
 * with its consumer. A claim lives until its holder releases it or its connection closes (a crashed client frees
 * its names with its connection). Claims are kept in memory: a broker restart frees them all. Thread-safe.
 */
public final class ExclusiveClaims {

    private final Map<String, RemotingChannel> holders = new ConcurrentHashMap<>();

    /** Claims a name for a connection: true when it was free or already held by that connection. */
    public boolean claim(String key, RemotingChannel channel) {
        RemotingChannel holder = holders.putIfAbsent(key, channel);
        return holder == null || holder.equals(channel);
    }

    /** Gives a name back; only its holder can. */
    public void release(String key, RemotingChannel channel) {
        holders.remove(key, channel);
    }

    /** Frees every name a closed connection held. */
    public void channelClosed(RemotingChannel channel) {
        holders.values().removeIf(channel::equals);
    }

    /** The connection holding a name, or null. */
    public RemotingChannel holder(String key) {
        return holders.get(key);
    }
}
