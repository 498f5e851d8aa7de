package dev.wharf.jms.context;

import static dev.wharf.jms.error.JmsErrors.unchecked;
import static dev.wharf.jms.error.JmsErrors.uncheckedRun;

import dev.wharf.jms.core.ProducerSettings;
import dev.wharf.jms.message.WharfBytesMessage;
import dev.wharf.jms.message.WharfMapMessage;
import dev.wharf.jms.message.WharfMessage;
import dev.wharf.jms.message.WharfObjectMessage;
import dev.wharf.jms.message.WharfTextMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Destination;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatRuntimeException;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A {@link JMSProducer} of a context: settings, headers and properties applied to every message it sends
 * (Jakarta Messaging 3.1, 7.2 and the {@code JMSProducer} Javadoc). The properties are kept in a message object,
 * so names, types and conversions follow exactly the rules of message properties. Sends go through the
 * context's session. Not thread-safe, like the context.
 */
public final class WharfJMSProducer implements JMSProducer {

    private final WharfJMSContext context;
    private final ProducerSettings settings = new ProducerSettings();
    private final WharfMessage properties = new WharfMessage();
    private CompletionListener async;
    private String correlationId;
    private byte[] correlationIdBytes;
    private String type;
    private Destination replyTo;

    WharfJMSProducer(WharfJMSContext context) {
        this.context = context;
    }

    // ---------------------------------------------------------------- sends

    @Override
    public JMSProducer send(Destination destination, Message message) {
        if (message == null) {
            throw new MessageFormatRuntimeException("The message is null; create one with the context and send that.");
        }
        uncheckedRun(() -> {
            apply(message);
            context.session().send(destination, message, settings, async);
        });
        return this;
    }

    @Override
    public JMSProducer send(Destination destination, String body) {
        WharfTextMessage m = context.newMessage(WharfTextMessage::new);
        uncheckedRun(() -> m.setText(body));
        return send(destination, m);
    }

    @Override
    public JMSProducer send(Destination destination, Map<String, Object> body) {
        WharfMapMessage m = context.newMessage(WharfMapMessage::new);
        if (body != null) {
            uncheckedRun(() -> {
                for (Map.Entry<String, Object> e : body.entrySet()) {
                    m.setObject(e.getKey(), e.getValue());
                }
            });
        }
        return send(destination, (MapMessage) m);
    }

    @Override
    public JMSProducer send(Destination destination, byte[] body) {
        WharfBytesMessage m = context.newMessage(WharfBytesMessage::new);
        if (body != null) {
            uncheckedRun(() -> m.writeBytes(body));
        }
        return send(destination, m);
    }

    @Override
    public JMSProducer send(Destination destination, Serializable body) {
        WharfObjectMessage m = context.newMessage(() -> new WharfObjectMessage(context.deserializationPolicy()));
        uncheckedRun(() -> m.setObject(body));
        return send(destination, m);
    }

    /** Sets the producer's headers and properties on the message before it is sent. */
    private void apply(Message message) throws jakarta.jms.JMSException {
        if (correlationIdBytes != null) {
            message.setJMSCorrelationIDAsBytes(correlationIdBytes);
        } else if (correlationId != null) {
            message.setJMSCorrelationID(correlationId);
        }
        if (type != null) {
            message.setJMSType(type);
        }
        if (replyTo != null) {
            message.setJMSReplyTo(replyTo);
        }
        for (String name : getPropertyNames()) {
            message.setObjectProperty(name, properties.getObjectProperty(name));
        }
    }

    // ---------------------------------------------------------------- settings

    @Override
    public JMSProducer setDisableMessageID(boolean value) {
        settings.disableMessageId(value);
        return this;
    }

    @Override
    public boolean getDisableMessageID() {
        return settings.disableMessageId();
    }

    @Override
    public JMSProducer setDisableMessageTimestamp(boolean value) {
        settings.disableTimestamp(value);
        return this;
    }

    @Override
    public boolean getDisableMessageTimestamp() {
        return settings.disableTimestamp();
    }

    @Override
    public JMSProducer setDeliveryMode(int deliveryMode) {
        uncheckedRun(() -> settings.deliveryMode(deliveryMode));
        return this;
    }

    @Override
    public int getDeliveryMode() {
        return settings.deliveryMode();
    }

    @Override
    public JMSProducer setPriority(int priority) {
        uncheckedRun(() -> settings.priority(priority));
        return this;
    }

    @Override
    public int getPriority() {
        return settings.priority();
    }

    @Override
    public JMSProducer setTimeToLive(long timeToLive) {
        uncheckedRun(() -> settings.timeToLive(timeToLive));
        return this;
    }

    @Override
    public long getTimeToLive() {
        return settings.timeToLive();
    }

    @Override
    public JMSProducer setDeliveryDelay(long deliveryDelay) {
        uncheckedRun(() -> settings.deliveryDelay(deliveryDelay));
        return this;
    }

    @Override
    public long getDeliveryDelay() {
        return settings.deliveryDelay();
    }

    /** Sends asynchronously from now on, calling {@code completionListener}; null sends synchronously again. */
    @Override
    public JMSProducer setAsync(CompletionListener completionListener) {
        this.async = completionListener;
        return this;
    }

    @Override
    public CompletionListener getAsync() {
        return async;
    }

    // ---------------------------------------------------------------- properties

    @Override
    public JMSProducer setProperty(String name, boolean value) {
        uncheckedRun(() -> properties.setBooleanProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, byte value) {
        uncheckedRun(() -> properties.setByteProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, short value) {
        uncheckedRun(() -> properties.setShortProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, int value) {
        uncheckedRun(() -> properties.setIntProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, long value) {
        uncheckedRun(() -> properties.setLongProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, float value) {
        uncheckedRun(() -> properties.setFloatProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, double value) {
        uncheckedRun(() -> properties.setDoubleProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, String value) {
        uncheckedRun(() -> properties.setStringProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, Object value) {
        uncheckedRun(() -> properties.setObjectProperty(name, value));
        return this;
    }

    @Override
    public JMSProducer clearProperties() {
        properties.clearProperties();
        return this;
    }

    @Override
    public boolean propertyExists(String name) {
        return properties.propertyExists(name);
    }

    @Override
    public boolean getBooleanProperty(String name) {
        return unchecked(() -> properties.getBooleanProperty(name));
    }

    @Override
    public byte getByteProperty(String name) {
        return unchecked(() -> properties.getByteProperty(name));
    }

    @Override
    public short getShortProperty(String name) {
        return unchecked(() -> properties.getShortProperty(name));
    }

    @Override
    public int getIntProperty(String name) {
        return unchecked(() -> properties.getIntProperty(name));
    }

    @Override
    public long getLongProperty(String name) {
        return unchecked(() -> properties.getLongProperty(name));
    }

    @Override
    public float getFloatProperty(String name) {
        return unchecked(() -> properties.getFloatProperty(name));
    }

    @Override
    public double getDoubleProperty(String name) {
        return unchecked(() -> properties.getDoubleProperty(name));
    }

    @Override
    public String getStringProperty(String name) {
        return unchecked(() -> properties.getStringProperty(name));
    }

    @Override
    public Object getObjectProperty(String name) {
        return properties.getObjectProperty(name);
    }

    /** A snapshot of the names, unmodifiable as the interface requires. */
    @Override
    public Set<String> getPropertyNames() {
        Set<String> names = new LinkedHashSet<>();
        Collections.list(properties.getPropertyNames()).forEach(names::add);
        return Collections.unmodifiableSet(names);
    }

    // ---------------------------------------------------------------- headers

    @Override
    public JMSProducer setJMSCorrelationIDAsBytes(byte[] correlationID) {
        if (correlationID == null || correlationID.length == 0) {
            throw new JMSRuntimeException("The correlation id bytes are " + (correlationID == null ? "null" : "empty")
                    + "; give at least one byte, or set a String correlation id.");
        }
        this.correlationIdBytes = correlationID.clone();
        this.correlationId = null;
        return this;
    }

    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        if (correlationIdBytes != null) {
            return correlationIdBytes.clone();
        }
        return correlationId == null ? null : correlationId.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Override
    public JMSProducer setJMSCorrelationID(String correlationID) {
        this.correlationId = correlationID;
        this.correlationIdBytes = null;
        return this;
    }

    @Override
    public String getJMSCorrelationID() {
        if (correlationIdBytes != null) {
            return new String(correlationIdBytes, java.nio.charset.StandardCharsets.UTF_8);
        }
        return correlationId;
    }

    @Override
    public JMSProducer setJMSType(String type) {
        this.type = type;
        return this;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    @Override
    public JMSProducer setJMSReplyTo(Destination replyTo) {
        this.replyTo = replyTo;
        return this;
    }

    @Override
    public Destination getJMSReplyTo() {
        return replyTo;
    }
}
