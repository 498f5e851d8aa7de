package dev.wharf.broker.ack;

import dev.wharf.broker.ack.persist.AckLog;
import dev.wharf.broker.ack.persist.AckLogRecord.DoneReason;
import dev.wharf.broker.ack.persist.AckLogRecord;
import dev.wharf.broker.ack.persist.AckStateDocument;
import dev.wharf.broker.ack.state.AckStateTable;
import dev.wharf.broker.ack.state.Delivery;
import dev.wharf.broker.ack.state.GroupAck;
import dev.wharf.broker.ack.state.LongList;
import dev.wharf.broker.ack.state.QueueAckState;
import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.broker.filter.CompiledSubscription;
import dev.wharf.broker.group.SubscriptionGroupManager;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.protocol.body.AckStats.QueueAckStats;
import dev.wharf.protocol.body.AckStats;
import dev.wharf.protocol.body.ConsumerModel.ExpressionType;
import dev.wharf.protocol.header.AckHeaders.InitMode;
import dev.wharf.remoting.RemotingChannel;
import dev.wharf.remoting.RemotingExecutors;
import dev.wharf.store.MessageStore;
import dev.wharf.store.PutMessageResult;
import java.io.IOException;
import java.util.ArrayList;
import dev.wharf.protocol.body.AckGroups;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acknowledgement-based consumption on the broker: pop (lease messages), ack, change a lease, peek, create and
 * delete a group's state, statistics. The request processors call it; see the package documentation for the
 * design. It runs one thread of its own ("wharf-ack") for lease expiry, dead-lettering and snapshots.
 *
 * <p>Lifecycle: {@link #start()} (after the store started and the topics are loaded, before the broker accepts
 * connections) loads the snapshot and replays the ack log; {@link #shutdown()} (after the broker stopped accepting,
 * before the store stops) writes the snapshot. Thread-safe.
 */
public final class AckService {

    private static final Logger log = LoggerFactory.getLogger(AckService.class);
    /** Every this many reaps, leases are also checked for owners whose connection is gone. */
    private static final int OWNER_CHECK_EVERY = 5;
    private static final long SHUTDOWN_WAIT_MILLIS = 3_000;

    /**
     * One pop.
     *
     * @param queueId           a queue, or -1 for any
     * @param readQueueNums     the topic's read queues on this broker
     * @param maxReconsumeTimes null = the group's retryMaxTimes
     */
    public record PopCommand(String group, String topic, int queueId, int readQueueNums, int maxNums,
                             long invisibleTime, CompiledSubscription subscription, InitMode initMode,
                             boolean skipUnmatched, Integer maxReconsumeTimes) {
    }

    private final AckSettings settings;
    private final MessageStore store;
    private final TopicConfigManager topics;
    private final SubscriptionGroupManager groups;
    private final LongSupplier clock;
    private final AckStateTable table = new AckStateTable();
    private final AckLog ackLog;
    private final SelectorCache selectors = new SelectorCache();
    private final AtomicLong mutations = new AtomicLong();
    private final ScheduledExecutorService thread;
    private final DeadLetterMover mover;
    private final GroupStates states;
    private final AckSnapshots snapshots;
    private final LeaseReturns returns;
    private volatile boolean running;
    private long reaps;

    public AckService(AckSettings settings, MessageStore store, TopicConfigManager topics,
                      SubscriptionGroupManager groups, JsonConfigFile<AckStateDocument> snapshotFile, QueueWaker waker,
                      LongSupplier clock) {
        this.settings = settings;
        this.store = store;
        this.topics = topics;
        this.groups = groups;
        this.clock = clock;
        this.ackLog = new AckLog(store, clock, settings.forceDeliveryCounts());
        this.thread = Executors.newSingleThreadScheduledExecutor(RemotingExecutors.threadFactory("wharf-ack"));
        this.mover = new DeadLetterMover(store, topics, ackLog, thread, mutations::incrementAndGet, waker);
        this.returns = new LeaseReturns(this::maxReconsumeTimes, mover, waker, mutations::incrementAndGet);
        this.states = new GroupStates(table, store, ackLog, mutations::incrementAndGet);
        this.snapshots = new AckSnapshots(table, ackLog, snapshotFile, mutations);
        topics.addListener(new TopicConfigManager.Listener() {
            @Override
            public void topicsChanged() {
            }

            @Override
            public void topicDeleted(String topic) {
                states.deleteTopic(topic);
            }
        });
    }

    // ------------------------------------------------------------------ lifecycle

    /**
     * Loads {@code ackState.json}, replays the ack log above it, writes a fresh snapshot and starts the lease,
     * dead-letter and snapshot work.
     *
     * @throws IOException the snapshot exists but neither it nor its backup is readable
     */
    public void start() throws IOException {
        String loaded = snapshots.load();
        running = true;
        thread.scheduleWithFixedDelay(this::reapQuietly, settings.leaseScanIntervalMillis(),
                settings.leaseScanIntervalMillis(), TimeUnit.MILLISECONDS);
        thread.scheduleWithFixedDelay(() -> snapshotQuietly(false), settings.snapshotIntervalMillis(),
                settings.snapshotIntervalMillis(), TimeUnit.MILLISECONDS);
        log.info("Acknowledgement state loaded: {}", loaded);
    }

    /** Stops the background work and writes the snapshot. */
    public void shutdown() {
        running = false;
        thread.shutdown();
        try {
            if (!thread.awaitTermination(SHUTDOWN_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
                thread.shutdownNow();
            }
        } catch (InterruptedException e) {
            thread.shutdownNow();
            Thread.currentThread().interrupt();
        }
        snapshotQuietly(true);
    }

    private void reapQuietly() {
        try {
            returns.reap(table, clock.getAsLong(), ++reaps % OWNER_CHECK_EVERY == 0);
        } catch (RuntimeException e) {
            log.warn("Ending expired leases failed: {}", e.toString());
        } catch (Throwable t) {
            // a scheduled task that throws is never run again; an Error means the broker cannot be trusted
            store.health().fail("the lease reaper (wharf-ack)", t);
        }
    }

    private void snapshotQuietly(boolean force) {
        try {
            snapshots.write(force);
        } catch (IOException | RuntimeException e) {
            log.warn("Could not write the acknowledgement snapshot: {}", e.getMessage());
        } catch (Throwable t) {
            store.health().fail("the acknowledgement snapshot (wharf-ack)", t);
        }
    }

    /** Writes the snapshot now (administration, tests). */
    public void snapshotNow() throws IOException {
        snapshots.write(true);
    }

    // ------------------------------------------------------------------ selectors

    /**
     * The compiled expression (cached by text).
     *
     * @throws dev.wharf.filter.InvalidSelectorException a bad SQL92 selector, naming what is wrong
     */
    public CompiledSubscription compile(ExpressionType type, String expression) {
        return selectors.get(type, expression);
    }

    // ------------------------------------------------------------------ pop

    /**
     * Leases up to {@code maxNums} available messages matching the subscription, walking the queues from a
     * rotating start when {@code queueId} is -1. Creates the group's state first when it has none.
     */
    public PopOutcome pop(PopCommand command, RemotingChannel owner) {
        long now = clock.getAsLong();
        GroupAck group = table.find(command.group(), command.topic());
        if (group == null) {
            group = states.ensureGroup(command.group(), command.topic(), command.initMode(), command.readQueueNums(),
                    null);
        }
        if (command.maxReconsumeTimes() != null) {
            group.maxReconsumeTimes(command.maxReconsumeTimes());
        }
        int maxReconsume = command.maxReconsumeTimes() != null ? command.maxReconsumeTimes()
                : maxReconsumeTimes(group.group, group);
        String scanKey = SelectorCache.scanKey(command.subscription());
        PopOutcome outcome = new PopOutcome(now);
        List<CompletableFuture<PutMessageResult>> logged = new ArrayList<>(2);
        int queues = command.queueId() >= 0 ? 1 : command.readQueueNums();
        int start = command.queueId() >= 0 ? command.queueId() : group.nextStart(queues);
        for (int i = 0; i < queues && outcome.count() < command.maxNums()
                && outcome.bytes() < settings.maxTransferBytes(); i++) {
            int queueId = command.queueId() >= 0 ? command.queueId() : (start + i) % queues;
            QueueAckState state = states.ensureQueue(group, queueId, command.initMode());
            if (state == null) {
                break; // the group's state was deleted meanwhile
            }
            PopScan scan = new PopScan(state, command.subscription(), command.skipUnmatched(), now, maxReconsume);
            state.lock.lock();
            try {
                if (state.isDeleted()) {
                    continue;
                }
                long returnsVersion = state.returnsVersion();
                scan.run(store, scanKey, command.maxNums() - outcome.count(),
                        settings.maxTransferBytes() - outcome.bytes(), settings.scanUnitsPerQueue());
                leaseFound(state, scan, now + command.invisibleTime(), owner, outcome, logged);
                logDone(state, DoneReason.SKIPPED, scan.skipped, logged);
                logDone(state, DoneReason.EXPIRED, scan.expired, logged);
                outcome.watch(state, scan.queueEnd, returnsVersion);
                if (scan.budgetExhausted) {
                    outcome.moreToScan();
                }
            } catch (RuntimeException e) {
                scan.releaseFound();
                throw e;
            } finally {
                state.lock.unlock();
            }
            if (!scan.deadLetters.isEmpty()) {
                mover.move(state, scan.deadLetters.toArray(), maxReconsume);
            }
        }
        if (!logged.isEmpty()) {
            mutations.incrementAndGet();
            outcome.logged(CompletableFuture.allOf(logged.toArray(new CompletableFuture<?>[0])));
        }
        if (outcome.count() > 0 && owner != null && !owner.isActive()) {
            // the connection closed while this pop ran (a long poll answered as its client shut down): the close
            // already ended the leases it held, not these, which would otherwise stay until they expire
            channelClosed(owner);
        }
        return outcome;
    }

    private void leaseFound(QueueAckState state, PopScan scan, long expiry, RemotingChannel owner, PopOutcome outcome,
                            List<CompletableFuture<PutMessageResult>> logged) {
        int n = scan.found.size();
        if (n == 0) {
            return;
        }
        long[] offsets = new long[n];
        int[] counts = new int[n];
        for (int i = 0; i < n; i++) {
            offsets[i] = PopScan.queueOffset(scan.found.get(i));
            Delivery d = state.lease(offsets[i], PopScan.commitLogOffset(scan.found.get(i)), scan.tagsCode(i), expiry,
                    owner);
            counts[i] = d.deliveries();
        }
        outcome.add(scan.found, counts);
        logged.add(ackLog.append(AckLogRecord.pop(state.group, state.topic, state.queueId, offsets, counts)));
    }

    private void logDone(QueueAckState state, DoneReason reason, LongList offsets,
                         List<CompletableFuture<PutMessageResult>> logged) {
        if (!offsets.isEmpty()) {
            logged.add(ackLog.append(AckLogRecord.done(state.group, state.topic, state.queueId, reason,
                    offsets.toArray())));
        }
    }

    // ------------------------------------------------------------------ ack and lease changes

    /**
     * Marks messages of one queue done. Offsets must be below the queue's end (the caller checks); offsets that
     * are done already are ignored.
     *
     * @return completes with how many messages changed, once that is logged
     */
    public CompletableFuture<Integer> ack(String group, String topic, int queueId, long[] offsets) {
        QueueAckState state = table.find(group, topic, queueId);
        if (state == null) {
            return CompletableFuture.completedFuture(0);
        }
        LongList changed = new LongList(offsets.length);
        CompletableFuture<PutMessageResult> logged = null;
        state.lock.lock();
        try {
            if (state.isDeleted()) {
                return CompletableFuture.completedFuture(0);
            }
            for (long offset : offsets) {
                if (state.markDone(offset)) {
                    changed.add(offset);
                }
            }
            if (!changed.isEmpty()) {
                logged = ackLog.append(AckLogRecord.ack(group, topic, queueId, changed.toArray()));
            }
        } finally {
            state.lock.unlock();
        }
        if (logged == null) {
            return CompletableFuture.completedFuture(0);
        }
        mutations.incrementAndGet();
        int count = changed.size();
        return logged.thenApply(result -> {
            requireStored(result, "acknowledgement");
            return count;
        });
    }

    /**
     * Changes the leases of messages of one queue. Messages not leased now (done, never popped, already given
     * back) are left alone, and so are those leased again since the caller got them (when
     * {@code expectedCounts} names the delivery count each was handed out with).
     *
     * @param expectedCounts the delivery count per offset, or null to change whatever lease is there
     * @param invisibleTime  0 = available again now; more = leased that much longer from now
     * @param countDelivery  whether the current delivery counts (false: it is undone)
     * @return completes with how many leases changed, once that is logged
     */
    public CompletableFuture<Integer> changeInvisibleTime(String group, String topic, int queueId, long[] offsets,
                                                          int[] expectedCounts, long invisibleTime,
                                                          boolean countDelivery) {
        QueueAckState state = table.find(group, topic, queueId);
        if (state == null) {
            return CompletableFuture.completedFuture(0);
        }
        long now = clock.getAsLong();
        int maxReconsume = maxReconsumeTimes(state);
        LeaseReturns.Batch batch = new LeaseReturns.Batch();
        LongList countOffsets = new LongList(2);
        List<Integer> countValues = new ArrayList<>(2);
        CompletableFuture<PutMessageResult> logged = null;
        int touched = 0;
        state.lock.lock();
        try {
            if (state.isDeleted()) {
                return CompletableFuture.completedFuture(0);
            }
            for (int i = 0; i < offsets.length; i++) {
                Delivery d = state.delivery(offsets[i]);
                if (d == null || !d.isLeased() || d.isDeadLettering()
                        || expectedCounts != null && expectedCounts[i] != d.deliveries()) {
                    continue;
                }
                touched++;
                if (state.countDelivery(d, countDelivery)) {
                    countOffsets.add(d.offset());
                    countValues.add(d.deliveries());
                }
                if (invisibleTime <= 0) {
                    returns.returnOrHold(state, d, maxReconsume, batch);
                } else {
                    state.extend(d, now + invisibleTime);
                }
            }
            if (!countOffsets.isEmpty()) {
                int[] values = new int[countValues.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = countValues.get(i);
                }
                logged = ackLog.append(AckLogRecord.deliveries(group, topic, queueId, countOffsets.toArray(), values));
            }
        } finally {
            state.lock.unlock();
        }
        returns.finish(state, batch, maxReconsume);
        if (touched > 0) {
            mutations.incrementAndGet();
        }
        int count = touched;
        return logged == null ? CompletableFuture.completedFuture(count) : logged.thenApply(result -> {
            requireStored(result, "lease change");
            return count;
        });
    }

    /** A connection closed: the leases it held end now (their deliveries count). */
    public void channelClosed(RemotingChannel channel) {
        if (!running) {
            return;
        }
        try {
            thread.execute(() -> {
                try {
                    returns.channelClosed(table, channel);
                } catch (RuntimeException e) {
                    log.warn("Ending the leases of closed connection {} failed: {}", channel.remoteAddress(),
                            e.toString());
                }
            });
        } catch (RejectedExecutionException e) {
            log.debug("Shutting down; the leases of {} end with the broker", channel.remoteAddress());
        }
    }

    // ------------------------------------------------------------------ peek

    /**
     * The messages of one queue still there for the group (not done; leased included; expired excluded) from
     * {@code fromOffset}, matching the subscription. Changes nothing.
     */
    public PeekOutcome peek(String group, String topic, int queueId, long fromOffset, int maxNums,
                            CompiledSubscription subscription) {
        QueueAckState state = table.find(group, topic, queueId);
        PeekScan scan = new PeekScan(state, subscription, clock.getAsLong());
        if (state == null) {
            scan.run(store, topic, queueId, fromOffset, maxNums, settings.maxTransferBytes(),
                    settings.scanUnitsPerQueue());
        } else {
            state.lock.lock();
            try {
                scan.run(store, topic, queueId, fromOffset, maxNums, settings.maxTransferBytes(),
                        settings.scanUnitsPerQueue());
            } finally {
                state.lock.unlock();
            }
        }
        return new PeekOutcome(scan.found, scan.deliveries, scan.nextOffset, store.getMinOffsetInQueue(topic, queueId),
                store.getMaxOffsetInQueue(topic, queueId));
    }

    // ------------------------------------------------------------------ group state

    /**
     * Creates the group's state for every queue of the topic that has none: at each queue's first stored
     * message (EARLIEST) or its end (LATEST). Queues of a group that already has state start at EARLIEST
     * (the subscription existed before them).
     *
     * @return completes once the creation is logged
     */
    public CompletableFuture<Void> createGroup(String group, String topic, InitMode initMode, int readQueueNums) {
        List<CompletableFuture<PutMessageResult>> logged = new ArrayList<>();
        states.ensureGroup(group, topic, initMode, readQueueNums, logged);
        return CompletableFuture.allOf(logged.toArray(new CompletableFuture<?>[0]));
    }

    /**
     * Deletes the group's state for the topic (unsubscribe). Leases end without redelivery; later acks of
     * them are ignored.
     *
     * @return completes with whether there was state, once the deletion is logged
     */
    public CompletableFuture<Boolean> deleteGroup(String group, String topic) {
        CompletableFuture<PutMessageResult> logged = states.delete(group, topic);
        if (logged == null) {
            return CompletableFuture.completedFuture(false);
        }
        log.info("Deleted the acknowledgement state of group {} on topic {}", group, topic);
        return logged.thenApply(result -> {
            requireStored(result, "deletion");
            return true;
        });
    }

    /** Every (group, topic) with state whose group name starts with {@code prefix}, sorted. */
    public List<AckGroups.GroupTopic> groupsWithPrefix(String prefix) {
        List<AckGroups.GroupTopic> out = new ArrayList<>();
        for (GroupAck g : table.all()) {
            if (g.group.startsWith(prefix)) {
                out.add(new AckGroups.GroupTopic(g.group, g.topic));
            }
        }
        out.sort(Comparator.comparing(AckGroups.GroupTopic::group).thenComparing(AckGroups.GroupTopic::topic));
        return out;
    }

    /** Whether the group has state for the topic. */
    public boolean hasGroup(String group, String topic) {
        return table.find(group, topic) != null;
    }

    // ------------------------------------------------------------------ statistics

    /** The group's per-queue state, for every topic it has state for (or just {@code topic}). */
    public AckStats stats(String group, String topic) {
        List<QueueAckStats> out = new ArrayList<>();
        for (GroupAck g : table.ofGroup(group)) {
            if (topic != null && !topic.equals(g.topic)) {
                continue;
            }
            for (QueueAckState q : g.queues().values()) {
                long end = store.getMaxOffsetInQueue(g.topic, q.queueId);
                q.lock.lock();
                try {
                    long ackOffset = q.ackOffset();
                    long doneAbove = q.doneAboveAckOffset();
                    long backlog = Math.max(0, end - ackOffset - doneAbove);
                    out.add(new QueueAckStats(g.topic, q.queueId, ackOffset, q.leasedCount(), doneAbove, backlog, end,
                            q.expired(), q.deadLettered(), q.skipped()));
                } finally {
                    q.lock.unlock();
                }
            }
        }
        return new AckStats(group, out);
    }

    // ------------------------------------------------------------------ helpers

    private int maxReconsumeTimes(QueueAckState state) {
        return maxReconsumeTimes(state.group, table.find(state.group, state.topic));
    }

    private int maxReconsumeTimes(String group, GroupAck g) {
        int requested = g == null ? -1 : g.maxReconsumeTimes();
        return requested >= 0 ? requested : groups.retryMaxTimes(group);
    }

    private static void requireStored(PutMessageResult result, String what) {
        if (!result.isOk()) {
            throw new IllegalStateException("The " + what + " is applied but could not be written to the ack log ("
                    + result.status() + (result.errorMessage() == null ? "" : ": " + result.errorMessage())
                    + "); it is lost if the broker restarts before the next snapshot.");
        }
    }
}
