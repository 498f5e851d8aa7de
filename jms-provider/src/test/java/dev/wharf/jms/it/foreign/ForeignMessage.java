package dev.wharf.jms.it.foreign;

import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A message without a body of the other provider; the body types extend it. */
public class ForeignMessage implements Message {

    private final Map<String, Object> properties = new LinkedHashMap<>();
    private String messageId;
    private long timestamp;
    private String correlationId;
    private Destination replyTo;
    private Destination destination;
    private int deliveryMode = DEFAULT_DELIVERY_MODE;
    private boolean redelivered;
    private String type;
    private long expiration;
    private long deliveryTime;
    private int priority = DEFAULT_PRIORITY;
    /** How many times a provider read each property: a provider that reads what was never set fails. */
    private int propertyReads;

    @Override
    public String getJMSMessageID() {
        return messageId;
    }

    @Override
    public void setJMSMessageID(String id) {
        this.messageId = id;
    }

    @Override
    public long getJMSTimestamp() {
        return timestamp;
    }

    @Override
    public void setJMSTimestamp(long timestamp) {
        this.timestamp = timestamp;
    }

    /** This provider has no byte correlation ids (the specification makes them optional). */
    @Override
    public byte[] getJMSCorrelationIDAsBytes() throws JMSException {
        throw new JMSException("byte correlation ids are not supported by the other provider");
    }

    @Override
    public void setJMSCorrelationIDAsBytes(byte[] correlationID) throws JMSException {
        throw new JMSException("byte correlation ids are not supported by the other provider");
    }

    @Override
    public void setJMSCorrelationID(String correlationID) {
        this.correlationId = correlationID;
    }

    @Override
    public String getJMSCorrelationID() {
        return correlationId;
    }

    @Override
    public Destination getJMSReplyTo() {
        return replyTo;
    }

    @Override
    public void setJMSReplyTo(Destination replyTo) {
        this.replyTo = replyTo;
    }

    @Override
    public Destination getJMSDestination() {
        return destination;
    }

    @Override
    public void setJMSDestination(Destination destination) {
        this.destination = destination;
    }

    @Override
    public int getJMSDeliveryMode() {
        return deliveryMode;
    }

    @Override
    public void setJMSDeliveryMode(int deliveryMode) {
        this.deliveryMode = deliveryMode;
    }

    @Override
    public boolean getJMSRedelivered() {
        return redelivered;
    }

    @Override
    public void setJMSRedelivered(boolean redelivered) {
        this.redelivered = redelivered;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    @Override
    public void setJMSType(String type) {
        this.type = type;
    }

    @Override
    public long getJMSExpiration() {
        return expiration;
    }

    @Override
    public void setJMSExpiration(long expiration) {
        this.expiration = expiration;
    }

    @Override
    public long getJMSDeliveryTime() {
        return deliveryTime;
    }

    @Override
    public void setJMSDeliveryTime(long deliveryTime) {
        this.deliveryTime = deliveryTime;
    }

    @Override
    public int getJMSPriority() {
        return priority;
    }

    @Override
    public void setJMSPriority(int priority) {
        this.priority = priority;
    }

    @Override
    public void clearProperties() {
        properties.clear();
    }

    @Override
    public boolean propertyExists(String name) {
        return properties.containsKey(name);
    }

    /** Strict: a property that was never set is an error here (the interface would allow null). */
    @Override
    public Object getObjectProperty(String name) throws JMSException {
        propertyReads++;
        if (!properties.containsKey(name)) {
            throw new JMSException("property does not exist: " + name);
        }
        return properties.get(name);
    }

    @Override
    public boolean getBooleanProperty(String name) throws JMSException {
        return (Boolean) getObjectProperty(name);
    }

    @Override
    public byte getByteProperty(String name) throws JMSException {
        return ((Number) getObjectProperty(name)).byteValue();
    }

    @Override
    public short getShortProperty(String name) throws JMSException {
        return ((Number) getObjectProperty(name)).shortValue();
    }

    @Override
    public int getIntProperty(String name) throws JMSException {
        return ((Number) getObjectProperty(name)).intValue();
    }

    @Override
    public long getLongProperty(String name) throws JMSException {
        return ((Number) getObjectProperty(name)).longValue();
    }

    @Override
    public float getFloatProperty(String name) throws JMSException {
        return ((Number) getObjectProperty(name)).floatValue();
    }

    @Override
    public double getDoubleProperty(String name) throws JMSException {
        return ((Number) getObjectProperty(name)).doubleValue();
    }

    @Override
    public String getStringProperty(String name) throws JMSException {
        Object v = getObjectProperty(name);
        return v == null ? null : v.toString();
    }

    @Override
    public Enumeration<String> getPropertyNames() {
        return Collections.enumeration(List.copyOf(properties.keySet()));
    }

    @Override
    public void setBooleanProperty(String name, boolean value) {
        properties.put(name, value);
    }

    @Override
    public void setByteProperty(String name, byte value) {
        properties.put(name, value);
    }

    @Override
    public void setShortProperty(String name, short value) {
        properties.put(name, value);
    }

    @Override
    public void setIntProperty(String name, int value) {
        properties.put(name, value);
    }

    @Override
    public void setLongProperty(String name, long value) {
        properties.put(name, value);
    }

    @Override
    public void setFloatProperty(String name, float value) {
        properties.put(name, value);
    }

    @Override
    public void setDoubleProperty(String name, double value) {
        properties.put(name, value);
    }

    @Override
    public void setStringProperty(String name, String value) {
        properties.put(name, value);
    }

    @Override
    public void setObjectProperty(String name, Object value) {
        properties.put(name, value);
    }

    @Override
    public void acknowledge() {
    }

    @Override
    public void clearBody() throws JMSException {
    }

    @Override
    public <T> T getBody(Class<T> c) throws JMSException {
        Object body = body();
        if (body != null && !c.isInstance(body)) {
            throw new MessageFormatException("the body is not a " + c.getName());
        }
        return c.cast(body);
    }

    @Override
    public boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) throws JMSException {
        Object body = body();
        return body == null || c.isInstance(body);
    }

    /** The body for getBody; null for a message without one. */
    Object body() throws JMSException {
        return null;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{" + messageId + ", " + properties + "}";
    }
}
