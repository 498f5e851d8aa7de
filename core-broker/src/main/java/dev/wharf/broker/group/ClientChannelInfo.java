package dev.wharf.broker.group;

import dev.wharf.remoting.RemotingChannel;
import java.util.Objects;

/**
 * One client connection in a group: the channel, the client's id and when its last heartbeat arrived.
 * Thread-safe (the timestamp is volatile; the rest is fixed).
 */
public final class ClientChannelInfo {

    private final RemotingChannel channel;
    private final String clientId;
    private final String language;
    private final int version;
    private volatile long lastUpdateTimestamp;

    public ClientChannelInfo(RemotingChannel channel, String clientId, String language, int version, long now) {
        this.channel = Objects.requireNonNull(channel, "channel");
        this.clientId = Objects.requireNonNull(clientId, "clientId");
        this.language = language;
        this.version = version;
        this.lastUpdateTimestamp = now;
    }

    public RemotingChannel channel() {
        return channel;
    }

    public String clientId() {
        return clientId;
    }

    public String language() {
        return language;
    }

    public int version() {
        return version;
    }

    /** Epoch millis of the last heartbeat. */
    public long lastUpdateTimestamp() {
        return lastUpdateTimestamp;
    }

    void touch(long now) {
        lastUpdateTimestamp = now;
    }

    @Override
    public String toString() {
        return clientId + "@" + channel.remoteAddress();
    }
}
