package dev.wharf.broker.schedule;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.Tags;
import dev.wharf.store.MessageToStore;
import java.util.HashMap;
import java.util.Map;

/**
 * Turns a message that waited in the schedule topic back into one of its real topic, and reads and writes the
 * SCHEDULE_SOURCE property ({@code queueId:queueOffset}) that marks a delivered copy. Stateless.
 */
final class ScheduledMessages {

    private ScheduledMessages() {
    }

    /**
     * The message to store under its real topic: topic and queue from REAL_TOPIC / REAL_QID, tag hash from
     * TAGS, the delay properties removed, SCHEDULE_SOURCE added; body, flag, keys, unique id, hosts, times,
     * reconsume count and every other property kept.
     *
     * @return null when the stored message names no real topic (not something the broker scheduled)
     */
    static MessageToStore restore(MessageExt scheduled, int sourceQueueId, long sourceQueueOffset) {
        String realTopic = scheduled.getProperty(MessageProperties.REAL_TOPIC);
        if (realTopic == null || realTopic.isEmpty()) {
            return null;
        }
        int realQueueId = 0;
        String qid = scheduled.getProperty(MessageProperties.REAL_QUEUE_ID);
        if (qid != null) {
            try {
                realQueueId = Math.max(0, Integer.parseInt(qid));
            } catch (NumberFormatException e) {
                realQueueId = 0;
            }
        }
        Map<String, String> properties = new HashMap<>(scheduled.getProperties());
        properties.remove(MessageProperties.REAL_TOPIC);
        properties.remove(MessageProperties.REAL_QUEUE_ID);
        properties.remove(MessageProperties.DELAY_TIME_LEVEL);
        properties.remove(MessageProperties.DELIVER_TIME_MS);
        properties.remove(MessageProperties.DELAY_MS);
        properties.put(MessageProperties.SCHEDULE_SOURCE, source(sourceQueueId, sourceQueueOffset));

        MessageToStore msg = new MessageToStore();
        msg.setTopic(realTopic);
        msg.setQueueId(realQueueId);
        msg.setFlag(scheduled.getFlag());
        msg.setBody(scheduled.getBody());
        msg.setProperties(properties);
        msg.setTagsCode(Tags.hash(properties.get(MessageProperties.TAGS)));
        msg.setSysFlag(scheduled.getSysFlag());
        msg.setBornTimestamp(scheduled.getBornTimestamp());
        msg.setBornHost(scheduled.getBornHost());
        msg.setStoreHost(scheduled.getStoreHost());
        msg.setReconsumeTimes(scheduled.getReconsumeTimes());
        msg.setPreparedTransactionOffset(scheduled.getPreparedTransactionOffset());
        return msg;
    }

    /**
     * A copy of a timer message for the end of the timer queue: everything kept (topic, queue, due time, real
     * topic), the old place recorded as SCHEDULE_SOURCE so a restart knows the old entry is settled.
     */
    static MessageToStore copyForRoll(MessageExt scheduled, int timerQueueId, long queueOffset) {
        Map<String, String> properties = new HashMap<>(scheduled.getProperties());
        properties.put(MessageProperties.SCHEDULE_SOURCE, source(timerQueueId, queueOffset));
        MessageToStore msg = new MessageToStore();
        msg.setTopic(scheduled.getTopic());
        msg.setQueueId(timerQueueId);
        msg.setFlag(scheduled.getFlag());
        msg.setBody(scheduled.getBody());
        msg.setProperties(properties);
        msg.setSysFlag(scheduled.getSysFlag());
        msg.setBornTimestamp(scheduled.getBornTimestamp());
        msg.setBornHost(scheduled.getBornHost());
        msg.setStoreHost(scheduled.getStoreHost());
        msg.setReconsumeTimes(scheduled.getReconsumeTimes());
        msg.setPreparedTransactionOffset(scheduled.getPreparedTransactionOffset());
        return msg;
    }

    static String source(int queueId, long queueOffset) {
        return queueId + ":" + queueOffset;
    }

    /**
     * Reads a SCHEDULE_SOURCE value into {@code into[0]} (queue id) and {@code into[1]} (queue offset).
     *
     * @return false when the value is not {@code queueId:queueOffset}
     */
    static boolean parseSource(String value, long[] into) {
        if (value == null) {
            return false;
        }
        int colon = value.indexOf(':');
        if (colon <= 0 || colon == value.length() - 1) {
            return false;
        }
        try {
            into[0] = Integer.parseInt(value, 0, colon, 10);
            into[1] = Long.parseLong(value, colon + 1, value.length(), 10);
        } catch (NumberFormatException e) {
            return false;
        }
        return into[0] >= 0 && into[1] >= 0;
    }
}
