package dev.wharf.jms.message;

import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.MessageNotWriteableException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A message without a body, and the headers, properties and modes all body types share.
 *
 * <p>Properties follow Jakarta Messaging 3.1, 3.5 "Message properties": names are checked by
 * {@link PropertyNames}, values read through the 3.5.4 conversion table ({@link ValueConversions}), and the
 * properties of a received message are read-only until {@link #clearProperties()}. Headers are never read-only.
 * A null value set through {@link #setStringProperty} or {@link #setObjectProperty} is kept (the property exists
 * and reads as null) but is not sent: on the wire an absent property and a null one are the same NULL to a
 * selector.
 *
 * <p>Not thread-safe, like every JMS message: one thread at a time, as the session's threading rules require.
 */
public class WharfMessage implements Message {

    private String messageId;
    private long timestamp;
    private String correlationId;
    private byte[] correlationIdBytes;
    private Destination replyTo;
    private Destination destination;
    private int deliveryMode = DEFAULT_DELIVERY_MODE;
    private boolean redelivered;
    private String type;
    private long expiration;
    private long deliveryTime;
    private int priority = DEFAULT_PRIORITY;

    private final Map<String, Object> properties = new LinkedHashMap<>();
    private boolean propertiesReadOnly;
    /** Read-only body; for bytes and stream messages {@code false} means write-only. */
    boolean bodyReadOnly;
    private MessageAcknowledger acknowledger;

    public WharfMessage() {
    }

    // ---------------------------------------------------------------- headers

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

    /**
     * The correlation id as bytes: the bytes given to {@link #setJMSCorrelationIDAsBytes}, or else the UTF-8 bytes
     * of the String correlation id, or null.
     */
    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        if (correlationIdBytes != null) {
            return correlationIdBytes.clone();
        }
        return correlationId == null ? null : correlationId.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Sets a byte correlation id (non-portable, as the specification warns). The bytes travel exactly;
     * {@link #getJMSCorrelationID()} and selectors see their UTF-8 decoding.
     */
    @Override
    public void setJMSCorrelationIDAsBytes(byte[] correlationID) {
        this.correlationIdBytes = correlationID == null ? null : correlationID.clone();
        this.correlationId = correlationID == null ? null : new String(correlationID, StandardCharsets.UTF_8);
    }

    @Override
    public void setJMSCorrelationID(String correlationID) {
        this.correlationId = correlationID;
        this.correlationIdBytes = null;
    }

    @Override
    public String getJMSCorrelationID() {
        return correlationId;
    }

    /** Whether the correlation id was set as bytes. */
    boolean hasCorrelationIdBytes() {
        return correlationIdBytes != null;
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

    // ---------------------------------------------------------------- properties

    @Override
    public void clearProperties() {
        properties.clear();
        propertiesReadOnly = false;
    }

    @Override
    public boolean propertyExists(String name) {
        return properties.containsKey(name);
    }

    @Override
    public boolean getBooleanProperty(String name) throws JMSException {
        return ValueConversions.toBoolean(properties.get(name), describe(name));
    }

    @Override
    public byte getByteProperty(String name) throws JMSException {
        return ValueConversions.toByte(properties.get(name), describe(name));
    }

    @Override
    public short getShortProperty(String name) throws JMSException {
        return ValueConversions.toShort(properties.get(name), describe(name));
    }

    @Override
    public int getIntProperty(String name) throws JMSException {
        return ValueConversions.toInt(properties.get(name), describe(name));
    }

    @Override
    public long getLongProperty(String name) throws JMSException {
        return ValueConversions.toLong(properties.get(name), describe(name));
    }

    @Override
    public float getFloatProperty(String name) throws JMSException {
        return ValueConversions.toFloat(properties.get(name), describe(name));
    }

    @Override
    public double getDoubleProperty(String name) throws JMSException {
        return ValueConversions.toDouble(properties.get(name), describe(name));
    }

    @Override
    public String getStringProperty(String name) throws JMSException {
        return ValueConversions.toString(properties.get(name), describe(name));
    }

    @Override
    public Object getObjectProperty(String name) {
        return properties.get(name);
    }

    @Override
    public Enumeration<String> getPropertyNames() {
        return Collections.enumeration(new ArrayList<>(properties.keySet()));
    }

    @Override
    public void setBooleanProperty(String name, boolean value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setByteProperty(String name, byte value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setShortProperty(String name, short value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setIntProperty(String name, int value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setLongProperty(String name, long value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setFloatProperty(String name, float value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setDoubleProperty(String name, double value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setStringProperty(String name, String value) throws JMSException {
        putProperty(name, value);
    }

    /**
     * Accepts Boolean, Byte, Short, Integer, Long, Float, Double and String (and null); any other class, including
     * Character and byte[], throws {@link MessageFormatException}.
     */
    @Override
    public void setObjectProperty(String name, Object value) throws JMSException {
        if (value != null && !(value instanceof String || value instanceof Boolean || value instanceof Byte
                || value instanceof Short || value instanceof Integer || value instanceof Long
                || value instanceof Float || value instanceof Double)) {
            checkPropertiesWritable();
            PropertyNames.check(name);
            throw new MessageFormatException("Property \"" + name + "\" cannot hold a "
                    + value.getClass().getName() + "; property values are Boolean, Byte, Short, Integer, Long,"
                    + " Float, Double or String.");
        }
        putProperty(name, value);
    }

    private void putProperty(String name, Object value) throws JMSException {
        checkPropertiesWritable();
        PropertyNames.check(name);
        checkJmsxType(name, value);
        properties.put(name, value);
    }

    /** The JMSX properties have the types Jakarta Messaging 3.5.9 gives them. */
    private static void checkJmsxType(String name, Object value) throws MessageFormatException {
        if (value == null) {
            return;
        }
        boolean wrong = switch (name) {
            case PropertyNames.JMSX_GROUP_ID, PropertyNames.JMSX_USER_ID, PropertyNames.JMSX_APP_ID,
                    PropertyNames.JMSX_PRODUCER_TXID, PropertyNames.JMSX_CONSUMER_TXID -> !(value instanceof String);
            case PropertyNames.JMSX_GROUP_SEQ, PropertyNames.JMSX_DELIVERY_COUNT, PropertyNames.JMSX_STATE ->
                    !(value instanceof Integer);
            case PropertyNames.JMSX_RCV_TIMESTAMP -> !(value instanceof Long);
            default -> false;
        };
        if (wrong) {
            throw new MessageFormatException("Property " + name + " cannot hold " + ValueConversions.typeName(value)
                    + " values; the specification defines the JMSX types (JMSXGroupID, JMSXUserID, JMSXAppID,"
                    + " JMSXProducerTXID, JMSXConsumerTXID: String; JMSXGroupSeq, JMSXDeliveryCount, JMSXState: int;"
                    + " JMSXRcvTimestamp: long).");
        }
    }

    private void checkPropertiesWritable() throws MessageNotWriteableException {
        if (propertiesReadOnly) {
            throw new MessageNotWriteableException("The properties of a received message are read-only; call"
                    + " clearProperties() before setting properties.");
        }
    }

    private static String describe(String name) {
        return "Property \"" + name + "\"";
    }

    /** The live property map, for the codec: no checks, no copies. */
    Map<String, Object> properties() {
        return properties;
    }

    // ---------------------------------------------------------------- body and modes

    @Override
    public void clearBody() throws JMSException {
        clearBodyContent();
        bodyReadOnly = false;
    }

    /**
     * Returns the body as {@code c}: see the body type's class for which classes fit. A message without a body
     * returns null for every class, as does any body type whose body is empty.
     *
     * @throws MessageFormatException when the body cannot be assigned to {@code c}, for every stream message,
     *                                and when an object message's object cannot be deserialized
     */
    @Override
    public final <T> T getBody(Class<T> c) throws JMSException {
        if (c == null) {
            throw new MessageFormatException("getBody needs a class; pass the class the body should have,"
                    + " e.g. String.class for a text message.");
        }
        return bodyAs(c);
    }

    @Override
    public boolean isBodyAssignableTo(@SuppressWarnings("rawtypes") Class c) throws JMSException {
        return true;
    }

    /**
     * Acknowledges through the receiving session; a message this process created and did not receive has no
     * session to acknowledge to and returns at once.
     */
    @Override
    public void acknowledge() throws JMSException {
        MessageAcknowledger a = acknowledger;
        if (a != null) {
            a.acknowledge(this);
        }
    }

    /** Sets what {@link #acknowledge()} calls; the consuming session does this for every message it delivers. */
    public void setAcknowledger(MessageAcknowledger acknowledger) {
        this.acknowledger = acknowledger;
    }

    /** The acknowledger, or null for a message that was not received. */
    public MessageAcknowledger getAcknowledger() {
        return acknowledger;
    }

    /** Whether the properties are read-only (a received message before {@link #clearProperties()}). */
    public boolean isPropertiesReadOnly() {
        return propertiesReadOnly;
    }

    /** Whether the body is read-only (a received message, or a bytes or stream message after reset). */
    public boolean isBodyReadOnly() {
        return bodyReadOnly;
    }

    /** Puts a received message into the modes the specification requires: properties and body read-only. */
    void markReceived() throws JMSException {
        propertiesReadOnly = true;
        bodyReadOnly = true;
        afterReceipt();
    }

    /** The body type this class stands for. */
    public BodyType bodyType() {
        return BodyType.MESSAGE;
    }

    /** Empties the body; {@link #clearBody()} then makes it writable. */
    void clearBodyContent() throws JMSException {
    }

    /** Hook for bodies that must rewind when they become readable on receipt. */
    void afterReceipt() throws JMSException {
    }

    <T> T bodyAs(Class<T> c) throws JMSException {
        return null;
    }

    /**
     * The body as stored on the wire, or null when there is none (no body at all, or the null text or object
     * that {@link WireProperties#NULL_BODY} marks).
     */
    byte[] encodeBody() throws JMSException {
        return null;
    }

    /** Restores the body from its stored form; {@code body} is null when the sender's body was null. */
    void decodeBody(byte[] body) throws JMSException {
    }

    void checkBodyWritable() throws MessageNotWriteableException {
        if (bodyReadOnly) {
            throw new MessageNotWriteableException("The body of this message is read-only; call clearBody()"
                    + " before writing to it.");
        }
    }

    void checkBodyReadable() throws MessageNotReadableException {
        if (!bodyReadOnly) {
            throw new MessageNotReadableException("The body of this message is write-only; call reset() before"
                    + " reading it.");
        }
    }

    static MessageFormatException notAssignable(String body, Class<?> c, String fits) {
        return new MessageFormatException("The body of this " + body + " cannot be assigned to " + c.getName()
                + "; ask for " + fits + ".");
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{id=" + messageId + ", destination=" + destination + ", type=" + type
                + ", properties=" + properties + "}";
    }

    /** The delivery mode name stored for selectors. */
    static String deliveryModeName(int mode) {
        return mode == DeliveryMode.NON_PERSISTENT ? WireProperties.NON_PERSISTENT : WireProperties.PERSISTENT;
    }
}
