package dev.wharf.broker.schedule;

import dev.wharf.broker.processor.PutMessageHook;
import dev.wharf.common.SystemTopics;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageSysFlag;
import dev.wharf.protocol.ResponseCode;
import dev.wharf.store.MessageToStore;
import java.util.function.LongSupplier;

/**
 * The send-path step of scheduled delivery: a message that asks for a delay is moved to
 * {@value SystemTopics#SCHEDULE_TOPIC} with its real topic and queue in REAL_TOPIC / REAL_QID and its absolute
 * due time in DELIVER_TIME_MS (which the dispatcher puts into the consume queue's tag slot).
 *
 * <ul>
 * <li>DELIVER_TIME_MS (epoch ms) or DELAY_MS (ms from now, converted here), or RocketMQ's other names for them,
 *     __STARTDELIVERTIME and TIMER_DELAY_SEC (rewritten to the first two): the timer queue; a due time at most
 *     {@value #DIRECT_DELIVERY_MILLIS} ms ahead (or past) is stored under the real topic at once, a due time
 *     beyond {@code timerMaxDelaySec} is refused;</li>
 * <li>DELAY (a level 1..N of messageDelayLevel): the level's queue; above N it is clamped to N, 0 or less means
 *     no delay. When both kinds are given the delivery time wins.</li>
 * </ul>
 *
 * A client-sent SCHEDULE_SOURCE is dropped: only the scheduler writes it. Half (prepared) transaction
 * messages pass untouched; their delay is the transaction commit's business. Thread-safe, allocation-free for
 * messages without delay properties.
 */
public final class DelayedMessageHook implements PutMessageHook {

    /** A due time this close is delivered at once: the scheduler's round trip would only add lateness. */
    static final long DIRECT_DELIVERY_MILLIS = 50;

    private final ScheduleLayout layout;
    private final long maxDelayMillis;
    private final LongSupplier clock;

    public DelayedMessageHook(ScheduleLayout layout, long timerMaxDelaySec, LongSupplier clock) {
        this.layout = layout;
        this.maxDelayMillis = timerMaxDelaySec * 1_000L;
        this.clock = clock;
    }

    @Override
    public Refusal beforePut(SendContext context, MessageToStore msg) {
        String error = route(msg);
        return error == null ? null : new Refusal(ResponseCode.MESSAGE_ILLEGAL, error);
    }

    /**
     * Checks the delay properties of a message without changing it (a transactional message is checked when it is
     * sent and routed when its transaction commits).
     *
     * @return null when the delay is acceptable (or absent), else a sentence saying what is wrong
     */
    public String check(Message msg) {
        String aliasError = checkAliases(msg);
        if (aliasError != null) {
            return aliasError;
        }
        String deliverAt = deliverAt(msg);
        String delayMs = delayMs(msg);
        String level = msg.getProperty(MessageProperties.DELAY_TIME_LEVEL);
        long now = clock.getAsLong();
        if (deliverAt != null && parse(deliverAt) < 0) {
            return "The property " + MessageProperties.DELIVER_TIME_MS + " is \"" + deliverAt + "\"; give the"
                    + " delivery time as epoch milliseconds (a whole number), e.g. " + (now + 60_000) + ".";
        }
        if (deliverAt == null && delayMs != null && parse(delayMs) < 0) {
            return "The property " + MessageProperties.DELAY_MS + " is \"" + delayMs + "\"; give the delay"
                    + " in milliseconds as a whole number from 0 up.";
        }
        long ahead = deliverAt != null ? parse(deliverAt) - now : delayMs != null ? parse(delayMs) : 0;
        if (ahead > maxDelayMillis) {
            return "The message asks for delivery in " + ahead / 1_000 + " s; this broker accepts delays of at"
                    + " most " + maxDelayMillis / 1_000 + " s (timerMaxDelaySec). Choose an earlier delivery time"
                    + " or raise timerMaxDelaySec on the broker.";
        }
        if (deliverAt == null && delayMs == null && level != null) {
            try {
                Integer.parseInt(level.trim());
            } catch (NumberFormatException e) {
                return "The property " + MessageProperties.DELAY_TIME_LEVEL + " is \"" + level + "\"; give a delay"
                        + " level from 1 to " + layout.levelCount() + " (messageDelayLevel), or use "
                        + MessageProperties.DELAY_MS + " for any delay in milliseconds.";
            }
        }
        return null;
    }

    /**
     * Moves a delayed message to the schedule topic (or strips its delay when it is due now); see the class
     * comment. Also used for messages the broker makes itself (retries, committed transactional messages).
     *
     * @return null when the message may be stored as it is now, else a sentence saying what is wrong
     */
    public String route(MessageToStore msg) {
        String deliverAt = deliverAt(msg);
        String delayMs = delayMs(msg);
        String level = msg.getProperty(MessageProperties.DELAY_TIME_LEVEL);
        boolean forgedSource = msg.getProperty(MessageProperties.SCHEDULE_SOURCE) != null;
        if (deliverAt == null && delayMs == null && level == null && !forgedSource) {
            return null;
        }
        String aliasError = checkAliases(msg);
        if (aliasError != null) {
            return aliasError;
        }
        msg.setPropertiesString(null);
        msg.removeProperty(MessageProperties.SCHEDULE_SOURCE);
        // RocketMQ's other names for the same request become Wharf's, so a retry or a redelivery is not delayed again
        if (msg.getProperty(MessageProperties.START_DELIVER_TIME) != null
                || msg.getProperty(MessageProperties.DELAY_SEC) != null) {
            msg.removeProperty(MessageProperties.START_DELIVER_TIME);
            msg.removeProperty(MessageProperties.DELAY_SEC);
            if (deliverAt != null) {
                msg.putProperty(MessageProperties.DELIVER_TIME_MS, deliverAt);
            } else if (delayMs != null) {
                msg.putProperty(MessageProperties.DELAY_MS, delayMs);
            }
        }
        if (MessageSysFlag.transactionType(msg.getSysFlag()) == MessageSysFlag.TRANSACTION_PREPARED_TYPE
                || SystemTopics.SCHEDULE_TOPIC.equals(msg.getTopic())
                || SystemTopics.TRANS_HALF_TOPIC.equals(msg.getTopic())) {
            // a half message keeps its delay until its transaction commits; the commit routes it then
            return null;
        }
        long now = clock.getAsLong();
        if (deliverAt != null || delayMs != null) {
            long ahead;
            if (deliverAt != null) {
                long due = parse(deliverAt);
                if (due < 0) {
                    return "The property " + MessageProperties.DELIVER_TIME_MS + " is \"" + deliverAt + "\"; give the"
                            + " delivery time as epoch milliseconds (a whole number), e.g. " + (now + 60_000) + ".";
                }
                ahead = due - now;
            } else {
                ahead = parse(delayMs);
                if (ahead < 0) {
                    return "The property " + MessageProperties.DELAY_MS + " is \"" + delayMs + "\"; give the delay"
                            + " in milliseconds as a whole number from 0 up.";
                }
            }
            if (ahead > maxDelayMillis) {
                return "The message asks for delivery in " + ahead / 1_000 + " s; this broker accepts delays of at"
                        + " most " + maxDelayMillis / 1_000 + " s (timerMaxDelaySec). Choose an earlier delivery time"
                        + " or raise timerMaxDelaySec on the broker.";
            }
            long due = now + ahead;
            msg.removeProperty(MessageProperties.DELAY_MS);
            msg.removeProperty(MessageProperties.DELAY_TIME_LEVEL);
            if (ahead <= DIRECT_DELIVERY_MILLIS) {
                msg.removeProperty(MessageProperties.DELIVER_TIME_MS);
                return null;
            }
            moveToScheduleTopic(msg, layout.timerQueueId(), due);
            return null;
        }
        if (level == null) {
            return null;
        }
        int levelNumber;
        try {
            levelNumber = Integer.parseInt(level.trim());
        } catch (NumberFormatException e) {
            return "The property " + MessageProperties.DELAY_TIME_LEVEL + " is \"" + level + "\"; give a delay level"
                    + " from 1 to " + layout.levelCount() + " (messageDelayLevel), or use " + MessageProperties.DELAY_MS
                    + " for any delay in milliseconds.";
        }
        if (levelNumber <= 0) {
            msg.removeProperty(MessageProperties.DELAY_TIME_LEVEL);
            return null;
        }
        levelNumber = Math.min(levelNumber, layout.levelCount());
        msg.putProperty(MessageProperties.DELAY_TIME_LEVEL, String.valueOf(levelNumber));
        moveToScheduleTopic(msg, levelNumber - 1, now + layout.levelMillis(levelNumber));
        return null;
    }

    private static void moveToScheduleTopic(MessageToStore msg, int queueId, long due) {
        msg.putProperty(MessageProperties.REAL_TOPIC, msg.getTopic());
        msg.putProperty(MessageProperties.REAL_QUEUE_ID, String.valueOf(msg.getQueueId()));
        msg.putProperty(MessageProperties.DELIVER_TIME_MS, String.valueOf(due));
        msg.setTopic(SystemTopics.SCHEDULE_TOPIC);
        msg.setQueueId(queueId);
        msg.setTagsCode(due);
    }

    /** DELIVER_TIME_MS, else RocketMQ's older __STARTDELIVERTIME; null when neither is set. */
    private static String deliverAt(Message msg) {
        String at = msg.getProperty(MessageProperties.DELIVER_TIME_MS);
        return at != null ? at : msg.getProperty(MessageProperties.START_DELIVER_TIME);
    }

    /** DELAY_MS, else TIMER_DELAY_SEC in milliseconds (its text as given when it is not a number). */
    private static String delayMs(Message msg) {
        String ms = msg.getProperty(MessageProperties.DELAY_MS);
        if (ms != null) {
            return ms;
        }
        String sec = msg.getProperty(MessageProperties.DELAY_SEC);
        if (sec == null) {
            return null;
        }
        long seconds = parse(sec);
        return seconds < 0 || seconds > Long.MAX_VALUE / 1_000 ? sec : String.valueOf(seconds * 1_000);
    }

    /** A sentence naming a malformed __STARTDELIVERTIME or TIMER_DELAY_SEC, or null. */
    private String checkAliases(Message msg) {
        String start = msg.getProperty(MessageProperties.START_DELIVER_TIME);
        if (start != null && msg.getProperty(MessageProperties.DELIVER_TIME_MS) == null && parse(start) < 0) {
            return "The property " + MessageProperties.START_DELIVER_TIME + " is \"" + start + "\"; give the"
                    + " delivery time as epoch milliseconds (a whole number), e.g. " + (clock.getAsLong() + 60_000)
                    + ".";
        }
        String sec = msg.getProperty(MessageProperties.DELAY_SEC);
        if (sec != null && msg.getProperty(MessageProperties.DELAY_MS) == null && parse(sec) < 0) {
            return "The property " + MessageProperties.DELAY_SEC + " is \"" + sec + "\"; give the delay in"
                    + " seconds as a whole number from 0 up.";
        }
        return null;
    }

    /** A non-negative whole number, or -1. */
    private static long parse(String value) {
        try {
            long v = Long.parseLong(value.trim());
            return v < 0 ? -1 : v;
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
