package dev.wharf.spring.support;

import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageHeaders;
import org.springframework.messaging.support.GenericMessage;

/**
 * Converts between the broker's messages and Spring's: a received message becomes a {@code Message<byte[]>} whose
 * headers are the {@link WharfHeaders} system fields and the user properties; a Spring message to send becomes a
 * broker message whose user properties are the simple-valued headers that are neither Spring's own nor Wharf's.
 */
public final class WharfMessages {

    /** Properties the broker and the client set for themselves: never shown as user headers. */
    private static final Set<String> SYSTEM_PROPERTIES = systemProperties();
    /** Headers Spring sets for itself: never stored as properties. */
    private static final Set<String> SPRING_HEADERS = Set.of(MessageHeaders.ID, MessageHeaders.TIMESTAMP,
            MessageHeaders.CONTENT_TYPE, MessageHeaders.REPLY_CHANNEL, MessageHeaders.ERROR_CHANNEL);

    private WharfMessages() {
    }

    /** A received message in Spring's form: the body as the payload, the fields and user properties as headers. */
    public static Message<byte[]> toSpring(MessageExt msg) {
        Map<String, Object> headers = new HashMap<>();
        for (Map.Entry<String, String> p : msg.getProperties().entrySet()) {
            if (!SYSTEM_PROPERTIES.contains(p.getKey())) {
                headers.put(p.getKey(), p.getValue());
            }
        }
        putIfPresent(headers, WharfHeaders.KEYS, msg.getKeys());
        putIfPresent(headers, WharfHeaders.TAGS, msg.getTags());
        headers.put(WharfHeaders.TOPIC, msg.getTopic());
        headers.put(WharfHeaders.MESSAGE_ID, msg.getMsgId());
        headers.put(WharfHeaders.QUEUE_ID, msg.getQueueId());
        headers.put(WharfHeaders.QUEUE_OFFSET, msg.getQueueOffset());
        headers.put(WharfHeaders.RECONSUME_TIMES, msg.getReconsumeTimes());
        headers.put(WharfHeaders.BORN_TIMESTAMP, msg.getBornTimestamp());
        headers.put(WharfHeaders.STORE_TIMESTAMP, msg.getStoreTimestamp());
        putIfPresent(headers, WharfHeaders.BROKER_NAME, msg.getBrokerName());
        headers.put(WharfHeaders.RAW_MESSAGE, msg);
        byte[] body = msg.getBody() == null ? new byte[0] : msg.getBody();
        return new GenericMessage<>(body, headers);
    }

    /**
     * A message to send, built from a converted Spring message.
     *
     * @param topic the topic
     * @param tags  the tag from the destination ({@code topic:tag}), or null to take {@link WharfHeaders#TAGS}
     * @throws IllegalArgumentException when a header cannot be stored (e.g. a delay level that is not a number)
     */
    public static dev.wharf.common.message.Message toWharf(String topic, String tags, Message<?> message) {
        dev.wharf.common.message.Message out = new dev.wharf.common.message.Message(topic, body(message.getPayload()));
        MessageHeaders headers = message.getHeaders();
        for (Map.Entry<String, Object> h : headers.entrySet()) {
            String name = h.getKey();
            Object value = h.getValue();
            if (value == null || SPRING_HEADERS.contains(name) || WharfHeaders.isSystem(name)
                    || SYSTEM_PROPERTIES.contains(name) || !isSimple(value)) {
                continue;
            }
            out.putProperty(name, value.toString());
        }
        String tag = tags != null ? tags : string(headers.get(WharfHeaders.TAGS));
        if (tag != null && !tag.isEmpty()) {
            out.setTags(tag);
        }
        String keys = string(headers.get(WharfHeaders.KEYS));
        if (keys != null && !keys.isEmpty()) {
            out.setKeys(keys);
        }
        Object level = headers.get(WharfHeaders.DELAY_LEVEL);
        if (level != null) {
            out.setDelayTimeLevel(intValue(WharfHeaders.DELAY_LEVEL, level));
        }
        Object at = headers.get(WharfHeaders.DELIVERY_TIME);
        if (at != null) {
            out.setDeliverTimeMs(longValue(WharfHeaders.DELIVERY_TIME, at));
        }
        return out;
    }

    /** The body bytes of a converted payload: byte[] as is, anything else by its UTF-8 text. */
    static byte[] body(Object payload) {
        if (payload instanceof byte[] b) {
            return b;
        }
        return payload == null ? new byte[0] : payload.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static boolean isSimple(Object value) {
        return value instanceof CharSequence || value instanceof Number || value instanceof Boolean
                || value instanceof Character || value instanceof Enum<?>;
    }

    private static String string(Object value) {
        return value == null ? null : value.toString();
    }

    private static int intValue(String header, Object value) {
        return (int) longValue(header, value);
    }

    private static long longValue(String header, Object value) {
        if (value instanceof Number n) {
            return n.longValue();
        }
        try {
            return Long.parseLong(value.toString().trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("The header " + header + " is \"" + value + "\"; give a number.", e);
        }
    }

    private static void putIfPresent(Map<String, Object> headers, String name, Object value) {
        if (value != null) {
            headers.put(name, value);
        }
    }

    private static Set<String> systemProperties() {
        Set<String> names = new HashSet<>();
        for (Field f : MessageProperties.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                try {
                    names.add((String) f.get(null));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return Set.copyOf(names);
    }
}
