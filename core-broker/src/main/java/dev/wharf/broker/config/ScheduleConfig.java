package dev.wharf.broker.config;

import java.util.List;

/**
 * Settings of scheduled delivery: the delay levels (RocketMQ's DELAY property), arbitrary delivery times (the timer)
 * and how often the scheduler's progress is saved.
 */
public class ScheduleConfig {

    /** Most delay levels: the schedule topic has one queue per level plus the timer queue. */
    private static final int MAX_DELAY_LEVELS = 1000;
    private static final long MAX_DELAY_LEVEL_MILLIS = 365L * 86_400_000L;
    /** One day in seconds, the smallest {@link #timerMaxDelaySec}. */
    private static final long DAY_SECONDS = 86_400L;

    /** Delay levels (level n = the n-th entry) for scheduled delivery: numbers with ms, s, m, h or d. */
    private String messageDelayLevel = "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h";
    /**
     * Longest delay accepted for a message with an arbitrary delivery time (DELAY_MS / DELIVER_TIME_MS), in
     * seconds; a later delivery time is refused at send. At least one day; default 30 days.
     */
    private long timerMaxDelaySec = 30 * DAY_SECONDS;
    /**
     * A timer message that would wait longer than this is copied to the end of the timer queue after this
     * long, so commit-log clean-up (fileReservedTime) never deletes a message that still waits; in seconds.
     * 0 = half of the store's fileReservedTime, at least 10 minutes.
     */
    private long timerRollIntervalSec = 0;
    /** How often the scheduler's progress (config/delayOffset.json) is written when it changed, in milliseconds. */
    private int flushDelayOffsetInterval = 1_000;

    /** Adds a sentence to {@code errors} for each bad setting, naming the key and what is allowed. */
    public void validate(List<String> errors) {
        ConfigChecks.range(errors, "timerMaxDelaySec", timerMaxDelaySec, DAY_SECONDS, 3650 * DAY_SECONDS);
        ConfigChecks.range(errors, "timerRollIntervalSec", timerRollIntervalSec, 0, 3650 * DAY_SECONDS);
        ConfigChecks.range(errors, "flushDelayOffsetInterval", flushDelayOffsetInterval, 10, 60_000);
        try {
            delayLevelMillis();
        } catch (IllegalArgumentException e) {
            errors.add(e.getMessage());
        }
    }

    /**
     * The delay of each level of {@link #getMessageDelayLevel()} in milliseconds (index 0 = level 1).
     *
     * @throws IllegalArgumentException naming an entry that is not a number followed by ms, s, m, h or d
     */
    public long[] delayLevelMillis() {
        if (messageDelayLevel == null || messageDelayLevel.isBlank()) {
            throw new IllegalArgumentException("messageDelayLevel is empty; give delays such as \"1s 5s 10s 30s 1m\".");
        }
        String[] parts = messageDelayLevel.trim().split("\\s+");
        long[] out = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            int unitLength = p.endsWith("ms") ? 2 : 1;
            long factor = unitLength == 2 ? 1L : switch (p.charAt(p.length() - 1)) {
                case 's' -> 1_000L;
                case 'm' -> 60_000L;
                case 'h' -> 3_600_000L;
                case 'd' -> 86_400_000L;
                default -> -1L;
            };
            long amount = -1;
            if (factor > 0 && p.length() > unitLength) {
                try {
                    amount = Long.parseLong(p.substring(0, p.length() - unitLength));
                } catch (NumberFormatException e) {
                    amount = -1;
                }
            }
            if (amount <= 0 || amount > MAX_DELAY_LEVEL_MILLIS / factor) {
                throw new IllegalArgumentException("messageDelayLevel entry \"" + p + "\" (level " + (i + 1)
                        + ") is not a positive number followed by ms, s, m, h or d (at most 365d), e.g. \"500ms\""
                        + " or \"10s\".");
            }
            out[i] = amount * factor;
        }
        if (out.length > MAX_DELAY_LEVELS) {
            throw new IllegalArgumentException("messageDelayLevel has " + out.length + " levels; at most "
                    + MAX_DELAY_LEVELS + " are allowed (each level is a queue of the schedule topic).");
        }
        return out;
    }

    /** Number of delay levels (the queues of the schedule topic). */
    public int delayLevelCount() {
        return delayLevelMillis().length;
    }

    public String getMessageDelayLevel() {
        return messageDelayLevel;
    }

    public void setMessageDelayLevel(String messageDelayLevel) {
        this.messageDelayLevel = messageDelayLevel;
    }

    public long getTimerMaxDelaySec() {
        return timerMaxDelaySec;
    }

    public void setTimerMaxDelaySec(long timerMaxDelaySec) {
        this.timerMaxDelaySec = timerMaxDelaySec;
    }

    public long getTimerRollIntervalSec() {
        return timerRollIntervalSec;
    }

    public void setTimerRollIntervalSec(long timerRollIntervalSec) {
        this.timerRollIntervalSec = timerRollIntervalSec;
    }

    public int getFlushDelayOffsetInterval() {
        return flushDelayOffsetInterval;
    }

    public void setFlushDelayOffsetInterval(int flushDelayOffsetInterval) {
        this.flushDelayOffsetInterval = flushDelayOffsetInterval;
    }
}
