package dev.wharf.broker.schedule;

import java.util.Map;

/**
 * The scheduler's progress as persisted in {@code config/delayOffset.json}. Written on the schedule thread
 * between rounds, so every delivery it counts is already in the commit log below {@code commitLogOffset}, and
 * every delivery it does not count is at or above it, where the restart scan finds it.
 *
 * @param commitLogOffset the commit log's end when the progress was taken: the restart scan starts here
 * @param levelCount      delay levels at the time (a changed messageDelayLevel is reported at start)
 * @param offsetTable     delay level (1..N) to the next queue offset of its queue to deliver
 * @param timerQueueId    the schedule-topic queue holding arbitrary delivery times
 * @param timerLowWater   every timer-queue offset below it is settled; above it the settled bitmap tells
 */
public record ScheduleProgress(long commitLogOffset, int levelCount, Map<Integer, Long> offsetTable,
                               int timerQueueId, long timerLowWater) {
}
