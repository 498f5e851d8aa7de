package dev.wharf.remoting;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers connection events to the endpoint's {@link ChannelEventListener} in order on one dedicated
 * thread, so a listener that takes a lock (the NameServer's route table) never stalls an I/O thread.
 */
final class ChannelEventDispatcher {

    private static final Logger log = LoggerFactory.getLogger(ChannelEventDispatcher.class);
    private static final int QUEUE_CAPACITY = 10_000;

    private final ThreadPoolExecutor executor;
    private final AtomicLong dropped = new AtomicLong();
    private volatile ChannelEventListener listener;

    ChannelEventDispatcher(String name) {
        this.executor = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE_CAPACITY),
                RemotingExecutors.threadFactory(name + "-events"));
        this.executor.allowCoreThreadTimeOut(true);
    }

    void setListener(ChannelEventListener listener) {
        this.listener = listener;
    }

    void connected(NettyRemotingChannel channel) {
        deliver("connect", channel, l -> l.onConnect(channel.remoteAddress(), channel));
    }

    void closed(NettyRemotingChannel channel) {
        deliver("close", channel, l -> l.onClose(channel.remoteAddress(), channel));
    }

    void idle(NettyRemotingChannel channel) {
        deliver("idle", channel, l -> l.onIdle(channel.remoteAddress(), channel));
    }

    void exception(NettyRemotingChannel channel, Throwable cause) {
        deliver("exception", channel, l -> l.onException(channel.remoteAddress(), channel, cause));
    }

    private void deliver(String event, NettyRemotingChannel channel, Consumer<ChannelEventListener> call) {
        ChannelEventListener target = listener;
        if (target == null) {
            return;
        }
        try {
            executor.execute(() -> {
                try {
                    call.accept(target);
                } catch (RuntimeException e) {
                    log.warn("Channel event listener failed on {} of {}: {}", event, channel.remoteAddress(),
                            e.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            if (dropped.getAndIncrement() % 1000 == 0) {
                log.warn("Dropping {} event of {}: the listener is {} events behind or the endpoint is shut down "
                        + "({} events dropped so far)", event, channel.remoteAddress(), QUEUE_CAPACITY, dropped.get());
            }
        }
    }

    /** Delivers what is queued (for instance the close events of a shutdown), then stops. */
    void shutdown() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(3, TimeUnit.SECONDS)) {
                log.warn("Channel event listener did not finish within 3 s of shutdown");
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
