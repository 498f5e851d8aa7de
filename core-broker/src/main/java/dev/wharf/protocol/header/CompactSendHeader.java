package dev.wharf.protocol.header;

import java.util.HashMap;
import java.util.Map;

/**
 * The compact form of the send header: RocketMQ's clients send SEND_MESSAGE_V2 (and their batches, SEND_BATCH_MESSAGE)
 * with one-letter field names to keep every frame short. This maps them to the long names of
 * {@link MessageHeaders.SendMessageRequest}.
 *
 * <pre>
 *  a producerGroup   b topic          c defaultTopic   d defaultTopicQueueNums   e queueId
 *  f sysFlag         g bornTimestamp  h flag           i properties              j reconsumeTimes
 *  k unitMode        l maxReconsumeTimes               m batch                   n brokerName
 * </pre>
 */
public final class CompactSendHeader {

    private static final String[][] NAMES = {
        {"a", "producerGroup"}, {"b", "topic"}, {"c", "defaultTopic"}, {"d", "defaultTopicQueueNums"},
        {"e", "queueId"}, {"f", "sysFlag"}, {"g", "bornTimestamp"}, {"h", "flag"}, {"i", "properties"},
        {"j", "reconsumeTimes"}, {"k", "unitMode"}, {"l", "maxReconsumeTimes"}, {"m", "batch"}, {"n", "brokerName"},
    };

    private CompactSendHeader() {
    }

    /**
     * Whether the fields are in the compact form: they name a topic as "b" and not as "topic". Wharf's own client
     * sends the long form under every code, RocketMQ's the compact one under SEND_MESSAGE_V2 and SEND_BATCH_MESSAGE.
     */
    public static boolean isCompact(Map<String, String> ext) {
        return ext != null && ext.containsKey("b") && !ext.containsKey("topic");
    }

    /** The fields with long names (a new map); fields other than the compact ones are left out. */
    public static Map<String, String> toLongForm(Map<String, String> ext) {
        Map<String, String> longForm = new HashMap<>(NAMES.length * 2);
        for (String[] name : NAMES) {
            String value = ext.get(name[0]);
            if (value != null) {
                longForm.put(name[1], value);
            }
        }
        return longForm;
    }

    /**
     * Reads a send header given in either form.
     *
     * @throws HeaderException naming a missing or malformed field by its long name
     */
    public static MessageHeaders.SendMessageRequest read(Map<String, String> ext) {
        Map<String, String> fields = isCompact(ext) ? toLongForm(ext) : ext;
        return HeaderCodec.decode(fields, MessageHeaders.SendMessageRequest.class);
    }
}
