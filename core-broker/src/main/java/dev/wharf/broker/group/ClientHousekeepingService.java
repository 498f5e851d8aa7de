package dev.wharf.broker.group;

import dev.wharf.remoting.ChannelEventListener;
import dev.wharf.remoting.RemotingChannel;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Drops clients that went away: at once when their channel closes (or errors, or idles out), and on the
 * periodic {@link #scanExpired()} when they stopped sending heartbeats for {@code channelExpiredTimeout}.
 * Channel events arrive on the remoting server's event thread; other parts that keep per-connection state (leases
 * of acknowledgement-based consumption) listen with {@link #addChannelCloseListener}.
 */
public final class ClientHousekeepingService implements ChannelEventListener {

    private final ConsumerManager consumers;
    private final ProducerManager producers;
    private final long channelExpiredTimeout;
    private final LongSupplier clock;
    private final List<Consumer<RemotingChannel>> closeListeners = new CopyOnWriteArrayList<>();

    public ClientHousekeepingService(ConsumerManager consumers, ProducerManager producers, long channelExpiredTimeout,
                                     LongSupplier clock) {
        this.consumers = consumers;
        this.producers = producers;
        this.channelExpiredTimeout = channelExpiredTimeout;
        this.clock = clock;
    }

    /** Also tells {@code listener} about every connection that closed (on the remoting event thread). */
    public void addChannelCloseListener(Consumer<RemotingChannel> listener) {
        closeListeners.add(listener);
    }

    @Override
    public void onClose(String remoteAddress, RemotingChannel channel) {
        drop(channel);
    }

    @Override
    public void onIdle(String remoteAddress, RemotingChannel channel) {
        drop(channel);
    }

    @Override
    public void onException(String remoteAddress, RemotingChannel channel, Throwable cause) {
        drop(channel);
    }

    private void drop(RemotingChannel channel) {
        consumers.channelClosed(channel);
        producers.channelClosed(channel);
        for (Consumer<RemotingChannel> listener : closeListeners) {
            listener.accept(channel);
        }
    }

    /** Drops (and disconnects) every client whose last heartbeat is older than the expiry timeout. */
    public void scanExpired() {
        long expiredBefore = clock.getAsLong() - channelExpiredTimeout;
        consumers.scanExpired(expiredBefore);
        producers.scanExpired(expiredBefore);
    }
}
