package dev.wharf.server.admin;

import dev.wharf.common.message.HostAddress;
import dev.wharf.common.message.MessageExt;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/** How admin commands show one message: a summary row or every field. */
final class MessageView {

    /** Longest body shown in a table cell. */
    static final int BODY_PREVIEW = 40;

    private MessageView() {
    }

    /** The fields of a listing (JSON: one object per message; the body in full). */
    static Map<String, Object> summary(MessageExt msg, String brokerName) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("msgId", msg.getMsgId());
        out.put("offsetMsgId", msg.getOffsetMsgId());
        out.put("topic", msg.getTopic());
        out.put("broker", brokerName != null ? brokerName : msg.getBrokerName());
        out.put("queueId", msg.getQueueId());
        out.put("queueOffset", msg.getQueueOffset());
        out.put("tags", msg.getTags());
        out.put("keys", msg.getKeys());
        out.put("storeTime", Texts.time(msg.getStoreTimestamp()));
        out.put("body", Texts.body(msg.getBody(), 0));
        return out;
    }

    /** Every field, in the order {@code query-id} prints them. */
    static Map<String, Object> detail(MessageExt msg) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("topic", msg.getTopic());
        out.put("broker", msg.getBrokerName());
        out.put("queueId", msg.getQueueId());
        out.put("queueOffset", msg.getQueueOffset());
        out.put("msgId", msg.getMsgId());
        out.put("offsetMsgId", msg.getOffsetMsgId());
        out.put("commitLogOffset", msg.getCommitLogOffset());
        out.put("tags", msg.getTags());
        out.put("keys", msg.getKeys());
        out.put("bornTime", Texts.time(msg.getBornTimestamp()));
        out.put("bornHost", HostAddress.toString(msg.getBornHost()));
        out.put("storeTime", Texts.time(msg.getStoreTimestamp()));
        out.put("storeHost", HostAddress.toString(msg.getStoreHost()));
        out.put("reconsumeTimes", msg.getReconsumeTimes());
        out.put("storeSize", msg.getStoreSize());
        out.put("properties", new TreeMap<>(msg.getProperties()));
        out.put("body", Texts.body(msg.getBody(), 0));
        return out;
    }

    /** {@link #detail} as aligned "Name: value" lines. */
    static String detailText(MessageExt msg) {
        Map<String, Object> fields = detail(msg);
        int width = fields.keySet().stream().mapToInt(String::length).max().orElse(0) + 1;
        StringBuilder out = new StringBuilder();
        fields.forEach((name, value) -> {
            String label = Character.toUpperCase(name.charAt(0)) + name.substring(1) + ":";
            out.append(label).append(" ".repeat(width - label.length() + 2)).append(value == null ? "-" : value)
                    .append(System.lineSeparator());
        });
        return out.toString();
    }
}
