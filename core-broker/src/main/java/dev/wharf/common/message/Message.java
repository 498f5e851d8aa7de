package dev.wharf.common.message;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * A message as an application builds it: topic, body, flag and string properties. Not thread-safe.
 */
public class Message {

    private String topic;
    private int flag;
    private Map<String, String> properties;
    private byte[] body;

    public Message() {
    }

    public Message(String topic, byte[] body) {
        this.topic = topic;
        this.body = body;
    }

    public Message(String topic, String tags, String keys, byte[] body) {
        this(topic, body);
        if (tags != null && !tags.isEmpty()) {
            setTags(tags);
        }
        if (keys != null && !keys.isEmpty()) {
            setKeys(keys);
        }
    }

    public String getTopic() {
        return topic;
    }

    public void setTopic(String topic) {
        this.topic = topic;
    }

    public int getFlag() {
        return flag;
    }

    public void setFlag(int flag) {
        this.flag = flag;
    }

    public byte[] getBody() {
        return body;
    }

    public void setBody(byte[] body) {
        this.body = body;
    }

    /** The live property map (created on first use). */
    public Map<String, String> getProperties() {
        if (properties == null) {
            properties = new HashMap<>();
        }
        return properties;
    }

    public void setProperties(Map<String, String> properties) {
        this.properties = properties;
    }

    public String getProperty(String name) {
        return properties == null ? null : properties.get(name);
    }

    public void putProperty(String name, String value) {
        getProperties().put(name, value);
    }

    public void removeProperty(String name) {
        if (properties != null) {
            properties.remove(name);
        }
    }

    public String getTags() {
        return getProperty(MessageProperties.TAGS);
    }

    public void setTags(String tags) {
        putProperty(MessageProperties.TAGS, tags);
    }

    public String getKeys() {
        return getProperty(MessageProperties.KEYS);
    }

    public void setKeys(String keys) {
        putProperty(MessageProperties.KEYS, keys);
    }

    /** Sets the keys, joined by spaces (the index splits on spaces). */
    public void setKeys(Collection<String> keys) {
        setKeys(String.join(" ", keys));
    }

    public int getDelayTimeLevel() {
        String level = getProperty(MessageProperties.DELAY_TIME_LEVEL);
        return level == null ? 0 : Integer.parseInt(level);
    }

    public void setDelayTimeLevel(int level) {
        putProperty(MessageProperties.DELAY_TIME_LEVEL, String.valueOf(level));
    }

    /** Absolute delivery time in epoch millis, or 0 when the message is not scheduled by time. */
    public long getDeliverTimeMs() {
        String at = getProperty(MessageProperties.DELIVER_TIME_MS);
        return at == null ? 0L : Long.parseLong(at);
    }

    public void setDeliverTimeMs(long epochMillis) {
        putProperty(MessageProperties.DELIVER_TIME_MS, String.valueOf(epochMillis));
    }

    /** The client-generated unique id, or null before the producer assigns it. */
    public String getUniqueKey() {
        return getProperty(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID);
    }

    public String getTransactionId() {
        return getProperty(MessageProperties.TRANSACTION_ID);
    }

    public void setTransactionId(String transactionId) {
        putProperty(MessageProperties.TRANSACTION_ID, transactionId);
    }

    public boolean isWaitStoreMsgOK() {
        String wait = getProperty(MessageProperties.WAIT_STORE_MSG_OK);
        return wait == null || Boolean.parseBoolean(wait);
    }

    public void setWaitStoreMsgOK(boolean wait) {
        putProperty(MessageProperties.WAIT_STORE_MSG_OK, Boolean.toString(wait));
    }

    @Override
    public String toString() {
        return "Message{topic=" + topic + ", flag=" + flag + ", properties=" + properties
                + ", bodyLength=" + (body == null ? 0 : body.length) + "}";
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Message other) || o.getClass() != getClass()) {
            return false;
        }
        return flag == other.flag && java.util.Objects.equals(topic, other.topic)
                && java.util.Objects.equals(getProperties(), other.getProperties())
                && Arrays.equals(body, other.body);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(topic, flag) * 31 + Arrays.hashCode(body);
    }
}
