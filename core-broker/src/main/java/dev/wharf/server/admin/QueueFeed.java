package dev.wharf.server.admin;

import dev.wharf.client.consumer.PullConsumer;
import dev.wharf.client.consumer.PullResult;
import dev.wharf.client.consumer.PullStatus;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageQueue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Pulls a set of queues from given offsets on a few threads and hands over the batches found, so that the
 * reader waits for whichever queue gets a message first. Each thread owns some queues: it pulls each of them
 * once, and when none had anything it long-polls one of them (in turn), so an idle topic costs one held request
 * per thread. The hand-over queue is bounded, so the threads never run far ahead of the reader.
 *
 * <p>Thread-safe for one reader; {@link #close()} stops the threads.
 */
final class QueueFeed implements AutoCloseable {

    /** Messages found in one queue, or the error that ended a pulling thread. */
    record Batch(MessageQueue queue, List<MessageExt> messages, Exception error) {
    }

    private static final int PULL_BATCH = 32;
    private static final int MAX_THREADS = 16;
    private static final long JOIN_MILLIS = 2_000;

    private final PullConsumer consumer;
    private final BlockingQueue<Batch> found;
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean closed;

    /**
     * @param start the queues and the offset to start each at
     */
    QueueFeed(PullConsumer consumer, Map<MessageQueue, Long> start) {
        this.consumer = consumer;
        int threadCount = Math.max(1, Math.min(MAX_THREADS, start.size()));
        this.found = new ArrayBlockingQueue<>(threadCount);
        List<List<MessageQueue>> shares = new ArrayList<>();
        for (int i = 0; i < threadCount; i++) {
            shares.add(new ArrayList<>());
        }
        int i = 0;
        for (MessageQueue mq : start.keySet()) {
            shares.get(i++ % threadCount).add(mq);
        }
        for (List<MessageQueue> share : shares) {
            if (share.isEmpty()) {
                continue;
            }
            long[] offsets = share.stream().mapToLong(start::get).toArray();
            Thread t = new Thread(() -> pullLoop(share, offsets), "wharf-cli-pull-" + threads.size());
            t.setDaemon(true);
            threads.add(t);
        }
    }

    void start() {
        threads.forEach(Thread::start);
    }

    /** The next batch, or null when none arrived within the timeout. */
    Batch poll(long timeoutMillis) throws InterruptedException {
        return found.poll(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    private void pullLoop(List<MessageQueue> queues, long[] offsets) {
        int idleTurn = 0;
        try {
            while (!closed) {
                boolean any = false;
                for (int i = 0; i < queues.size() && !closed; i++) {
                    any |= handle(queues.get(i), offsets, i, consumer.pull(queues.get(i), null, offsets[i], PULL_BATCH));
                }
                if (!any && !closed) {
                    int i = idleTurn++ % queues.size();
                    handle(queues.get(i), offsets, i,
                            consumer.pullBlockIfNotFound(queues.get(i), null, offsets[i], PULL_BATCH));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            if (!closed) {
                found.offer(new Batch(null, List.of(), e));
            }
        }
    }

    private boolean handle(MessageQueue mq, long[] offsets, int index, PullResult result) throws InterruptedException {
        offsets[index] = result.nextBeginOffset();
        if (result.pullStatus() == PullStatus.FOUND && !result.msgFoundList().isEmpty()) {
            found.put(new Batch(mq, result.msgFoundList(), null));
            return true;
        }
        return false;
    }

    @Override
    public void close() {
        closed = true;
        threads.forEach(Thread::interrupt);
        for (Thread t : threads) {
            try {
                t.join(JOIN_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
