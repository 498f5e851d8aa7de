package dev.wharf.broker.schedule;

import dev.wharf.broker.config.ScheduleConfig;
import dev.wharf.broker.config.JsonConfigFile;
import dev.wharf.broker.topic.TopicConfigManager;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.util.ServiceThread;
import dev.wharf.store.MessageStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scheduled delivery: follows the queues of {@value SystemTopics#SCHEDULE_TOPIC} and stores every message
 * under its real topic once it is due. One thread runs the level queues ({@link LevelDeliverer}) and the timer
 * queue ({@link TimerDeliverer}); it sleeps until the earliest due time it knows of (at most
 * {@value #POLL_MILLIS} ms) and is woken early when a message due sooner arrives.
 *
 * <p>Progress survives restarts without delivering a message twice: each delivered copy carries
 * SCHEDULE_SOURCE; {@code config/delayOffset.json} ({@link ScheduleProgress}) records the level offsets, the
 * timer's low-water mark and the commit log's end, written every {@code flushDelayOffsetInterval} ms when
 * something changed and at shutdown; the timer's settled bitmap sits in {@code schedule/timer-settled/}. At
 * start the commit log is scanned from the recorded end (usually a second's worth of writes) and every
 * source found counts as delivered; then the timer index is rebuilt from the low-water mark.
 *
 * <p>Lifecycle: {@link #start()} after the store started (it reads the store to catch up), {@link #shutdown()}
 * before the store stops. Thread-safe: {@link #messageArrived} and the accessors may be called from any thread.
 */
public final class ScheduleService {

    private static final Logger log = LoggerFactory.getLogger(ScheduleService.class);

    /** Longest sleep when nothing is known to be due: how soon a missed wake-up is caught up. */
    static final long POLL_MILLIS = 100;
    private static final long RETRY_BACKOFF_MILLIS = 500;
    private static final int LEVEL_BATCH = 256;
    private static final int TIMER_BATCH = 1_024;
    private static final int INGEST_BATCH = 16_384;
    private static final long MIN_ROLL_MILLIS = 600_000;

    private final MessageStore store;
    private final ScheduleLayout layout;
    private final DelayedMessageHook hook;
    private final JsonConfigFile<ScheduleProgress> progressFile;
    private final SettledBitmap settled;
    private final ScheduledPutter putter;
    private final List<LevelDeliverer> levels = new ArrayList<>();
    private final long persistIntervalMillis;
    private final long rollAfterMillis;
    private final LongSupplier clock;
    private final Loop loop = new Loop();
    private volatile TimerDeliverer timer;

    private volatile long plannedWake = Long.MAX_VALUE;
    private volatile long delivered;
    private volatile long rolled;
    private volatile long skipped;
    private volatile long timerEarliestDue = -1;
    private boolean dirty;
    private long lastPersist;

    /**
     * @param storeRoot         the store's root folder ({@code config/} and {@code schedule/} live there)
     * @param fileReservedHours the store's fileReservedTime: long timer waits roll well before it
     */
    public ScheduleService(ScheduleConfig config, MessageStore store, TopicConfigManager topics, Path storeRoot,
                           int fileReservedHours, LongSupplier clock) {
        this.store = store;
        this.clock = clock;
        this.layout = new ScheduleLayout(config.delayLevelMillis());
        this.hook = new DelayedMessageHook(layout, config.getTimerMaxDelaySec(), clock);
        this.progressFile = JsonConfigFile.inConfigDir(storeRoot, "delayOffset.json", ScheduleProgress.class);
        this.settled = new SettledBitmap(storeRoot.resolve("schedule").resolve("timer-settled"));
        this.putter = new ScheduledPutter(store, topics, layout.timerQueueId());
        this.persistIntervalMillis = config.getFlushDelayOffsetInterval();
        this.rollAfterMillis = config.getTimerRollIntervalSec() > 0 ? config.getTimerRollIntervalSec() * 1_000L
                : Math.max(MIN_ROLL_MILLIS, fileReservedHours * 3_600_000L / 2);
    }

    /** The send-path step that moves delayed messages to the schedule topic (add it to the broker's hooks). */
    public DelayedMessageHook hook() {
        return hook;
    }

    public ScheduleLayout layout() {
        return layout;
    }


    /** Told by the dispatcher about every stored message; wakes the scheduler for one due sooner than planned. */
    public void messageArrived(String topic, int queueId, long tagsCode) {
        if (tagsCode < plannedWake && SystemTopics.SCHEDULE_TOPIC.equals(topic)) {
            loop.wakeup();
        }
    }

    /**
     * Loads the progress, finds the deliveries made after it was saved, rebuilds the timer index and starts the
     * schedule thread.
     *
     * @throws IOException the progress file exists but neither it nor its backup is readable
     */
    public void start() throws IOException {
        long now = clock.getAsLong();
        ScheduleProgress progress = progressFile.load();
        long lowWater = 0;
        long scanFrom = store.getMinPhyOffset();
        Map<Integer, Long> saved = Map.of();
        if (progress != null) {
            scanFrom = progress.commitLogOffset();
            lowWater = Math.max(0, progress.timerLowWater());
            saved = progress.offsetTable() == null ? Map.of() : progress.offsetTable();
            if (progress.levelCount() != layout.levelCount() || progress.timerQueueId() != layout.timerQueueId()) {
                log.warn("messageDelayLevel changed from {} to {} levels; messages that waited in queues whose"
                        + " meaning changed are delivered by the queue they are in now (the timer queue was {}, is"
                        + " now {})", progress.levelCount(), layout.levelCount(), progress.timerQueueId(),
                        layout.timerQueueId());
            }
        }
        settled.load(lowWater);
        levels.clear(); // started again after a stop (a replica elected master again)
        long timerEnd = store.getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, layout.timerQueueId());
        settled.clearFrom(timerEnd); // offsets the queue no longer has (a commit-log tail lost in a crash)
        for (int q = 0; q < layout.levelCount(); q++) {
            Long offset = saved.get(q + 1);
            levels.add(new LevelDeliverer(q, store, putter, offset == null ? 0 : offset));
        }

        long[] found = new long[1];
        long from = Math.min(Math.max(0, scanFrom), store.getMaxPhyOffset());
        long scanEnd = store.forEachRecord(from, msg -> {
            if (markDelivered(msg)) {
                found[0]++;
            }
        });
        for (LevelDeliverer level : levels) {
            long max = store.getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, level.queueId());
            long min = store.getMinOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, level.queueId());
            level.setOffset(Math.max(min, Math.min(level.offset(), max)));
        }
        timer = new TimerDeliverer(layout.timerQueueId(), store, putter, settled,
                new TimerWheel(now, TimerWheel.DEFAULT_SLOTS), rollAfterMillis, lowWater);
        timer.rebuild(now);
        persist();
        log.info("Scheduled delivery started: {} levels, timer queue {} with {} pending ({} beyond the wheel, index"
                        + " ~{} KiB) from offset {}; scanned {} commit-log bytes, {} deliveries found after the saved"
                        + " progress", layout.levelCount(), layout.timerQueueId(), timer.pendingCount(),
                timer.overflowCount(), timer.indexMemoryBytes() / 1024, timer.lowWater(), scanEnd - from, found[0]);
        loop.start();
    }

    /** Counts a delivered copy (or a rolled timer copy) found in the commit log as its source's delivery. */
    private boolean markDelivered(MessageExt msg) {
        String value = msg.getProperty(MessageProperties.SCHEDULE_SOURCE);
        long[] source = new long[2];
        if (value == null || !ScheduledMessages.parseSource(value, source)) {
            return false;
        }
        int queueId = (int) source[0];
        long offset = source[1];
        if (queueId == layout.timerQueueId()) {
            settled.set(offset);
            return true;
        }
        if (queueId < levels.size()) {
            LevelDeliverer level = levels.get(queueId);
            level.setOffset(Math.max(level.offset(), offset + 1));
            return true;
        }
        return false;
    }

    /** Stops the schedule thread, which writes the progress on its way out. */
    public void shutdown() {
        loop.shutdown(10_000);
    }

    /** One scheduling round; returns how long to sleep. */
    private long round() {
        plannedWake = Long.MIN_VALUE; // arrivals during the round wake the next sleep at once
        long now = clock.getAsLong();
        long next = now + POLL_MILLIS;
        int ingested = timer.ingest(now, INGEST_BATCH);
        boolean blocked = false;
        boolean worked = ingested > 0;
        for (LevelDeliverer level : levels) {
            long before = level.offset();
            next = Math.min(next, level.deliverDue(now, LEVEL_BATCH));
            worked |= level.offset() != before;
            blocked |= level.wasBlocked();
        }
        int fired = timer.deliverDue(now, TIMER_BATCH);
        blocked |= timer.wasBlocked();
        worked |= fired > 0;
        if (fired == TIMER_BATCH || ingested == INGEST_BATCH) {
            next = now;
        }
        long earliest = timer.nextDue(Long.MAX_VALUE); // at most one pass over the wheel's slots
        timerEarliestDue = earliest == Long.MAX_VALUE ? -1 : earliest;
        next = Math.min(next, earliest);
        putter.awaitPending();
        delivered = putter.storedCount();
        rolled = putter.rolledCount();
        skipped = putter.skippedCount();
        dirty |= worked;
        if (blocked) {
            next = Math.max(next, now + RETRY_BACKOFF_MILLIS);
        }
        if (dirty && now - lastPersist >= persistIntervalMillis) {
            persistQuietly();
        }
        plannedWake = next;
        return next - clock.getAsLong();
    }

    /**
     * Writes the progress. On the schedule thread between rounds: every put so far is complete and counted,
     * so the commit log's end now is a correct start for the next restart scan. The bitmap goes first and
     * loses its old segments only after the JSON names the new low-water mark.
     */
    private void persist() throws IOException {
        long commitLogOffset = store.getMaxPhyOffset();
        long lowWater = timer.advanceLowWater();
        settled.flush();
        Map<Integer, Long> table = new TreeMap<>();
        for (LevelDeliverer level : levels) {
            table.put(level.queueId() + 1, level.offset());
        }
        progressFile.persist(new ScheduleProgress(commitLogOffset, layout.levelCount(), table,
                layout.timerQueueId(), lowWater));
        settled.dropBelow(lowWater);
        dirty = false;
        lastPersist = clock.getAsLong();
    }

    private void persistQuietly() {
        try {
            persist();
        } catch (IOException | RuntimeException e) {
            log.warn("Could not write the scheduler's progress to {}: {}; will retry", progressFile.path(),
                    e.toString());
        }
    }

    // ------------------------------------------------------------------ observation

    /** The next queue offset a delay level (1..N) will deliver. */
    public long levelOffset(int level) {
        if (level < 1 || level > levels.size()) {
            throw new IllegalArgumentException("delay level " + level + " does not exist; levels are 1.."
                    + layout.levelCount());
        }
        return levels.get(level - 1).offset();
    }

    /**
     * How long the oldest message still waiting in a delay level (1..N) has been stored, or -1 when the level has
     * none. Level queues deliver in order, so that message is the one at the level's offset: one consume-queue
     * unit and one record read, whatever the level holds.
     */
    public long levelOldestAgeMillis(int level) {
        long offset = levelOffset(level);
        int queueId = level - 1;
        if (offset >= store.getMaxOffsetInQueue(SystemTopics.SCHEDULE_TOPIC, queueId)) {
            return -1;
        }
        long stored = store.getMessageStoreTimestamp(SystemTopics.SCHEDULE_TOPIC, queueId, offset);
        return stored < 0 ? -1 : Math.max(0, clock.getAsLong() - stored);
    }

    /**
     * The earliest time (epoch ms) the timer index holds as of the last scheduling round, or -1 when it holds
     * nothing. A message waiting longer than the roll interval counts at its roll time (when it is copied to the
     * end of the timer queue), which comes before its delivery time.
     */
    public long timerEarliestDue() {
        return timerEarliestDue;
    }

    /** Every timer-queue offset below this is settled. */
    public long timerLowWater() {
        TimerDeliverer t = timer;
        return t == null ? 0 : t.lowWater();
    }

    /** Timer messages waiting in memory. */
    public int timerPendingCount() {
        TimerDeliverer t = timer;
        return t == null ? 0 : t.pendingCount();
    }

    /** Messages stored under their real topic since start. */
    public long deliveredCount() {
        return delivered;
    }

    /** Long-waiting timer messages copied to the end of the timer queue since start. */
    public long rolledCount() {
        return rolled;
    }

    /** Scheduled messages that could not be delivered (gone, or unstorable; each one logged). */
    public long skippedCount() {
        return skipped;
    }

    /** The schedule thread. */
    private final class Loop extends ServiceThread {

        @Override
        public String getServiceName() {
            return "wharf-schedule";
        }

        @Override
        public void run() {
            while (!isStopped()) {
                long sleep;
                try {
                    sleep = round();
                } catch (Throwable t) {
                    if (t instanceof Error) {
                        store.health().fail(getServiceName(), t);
                    } else {
                        log.error("Scheduling round failed; retrying shortly", t);
                    }
                    plannedWake = clock.getAsLong() + RETRY_BACKOFF_MILLIS;
                    sleep = RETRY_BACKOFF_MILLIS;
                }
                if (sleep > 0) {
                    waitForRunning(sleep);
                }
            }
            try {
                putter.awaitPending();
                persist();
            } catch (IOException | RuntimeException e) {
                log.warn("Could not write the scheduler's progress at shutdown: {}", e.toString());
            }
        }
    }
}
