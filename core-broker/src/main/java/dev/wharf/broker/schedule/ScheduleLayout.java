package dev.wharf.broker.schedule;

import java.util.Arrays;

/**
 * How the schedule topic's queues are used: queue {@code level - 1} per delay level (FIFO, all messages of a
 * queue wait equally long) and one more queue, {@link #timerQueueId()}, for messages with an arbitrary delivery
 * time. Immutable.
 */
public final class ScheduleLayout {

    private final long[] levelMillis;

    /** @param levelMillis the delay of each level, index 0 = level 1 (ScheduleConfig#delayLevelMillis) */
    public ScheduleLayout(long[] levelMillis) {
        if (levelMillis.length == 0) {
            throw new IllegalArgumentException("at least one delay level is needed");
        }
        this.levelMillis = levelMillis.clone();
    }

    public int levelCount() {
        return levelMillis.length;
    }

    /** The delay of a level, 1..{@link #levelCount()}. */
    public long levelMillis(int level) {
        return levelMillis[level - 1];
    }

    /** The queue of arbitrary delivery times: the one after the level queues. */
    public int timerQueueId() {
        return levelMillis.length;
    }

    /** Queues of the schedule topic. */
    public int queueCount() {
        return levelMillis.length + 1;
    }

    @Override
    public String toString() {
        return "ScheduleLayout{levels=" + Arrays.toString(levelMillis) + ", timerQueue=" + timerQueueId() + "}";
    }
}
