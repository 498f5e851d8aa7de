package dev.wharf.jms.message;

import dev.wharf.common.TopicValidator;
import dev.wharf.common.message.Message;
import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageExt;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.jms.destination.Destinations;
import dev.wharf.jms.destination.WharfDestination;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import java.time.Clock;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Converts JMS messages to the broker's messages for sending and received broker messages back to JMS messages.
 *
 * <p>The broker evaluates selectors on the stored properties, so this mapping is a contract with the broker:
 * <pre>
 *  JMS                         stored as
 *  JMSMessageID  "ID:x"        UNIQ_KEY = x (the producer assigns x with UniqueIdGenerator)
 *  JMSTimestamp                JMSTimestamp (long millis, 0 when disabled; absent = the record's born timestamp,
 *                              which selectors on JMSTimestamp read)
 *  JMSType                     TAGS (its hash goes into the consume queue)
 *  JMSDeliveryMode             JMSDeliveryMode = PERSISTENT | NON_PERSISTENT; NON_PERSISTENT also sets WAIT=false
 *  JMSPriority                 JMSPriority (int, listed as I in WHARF_PROPERTY_TYPES)
 *  JMSCorrelationID            JMSCorrelationID; a byte id also as Base64 in JMS_Wharf_CorrelationIDBytes
 *  JMSExpiration               JMSExpiration (long millis; absent = 0)
 *  JMSDeliveryTime             JMSDeliveryTime (absent = the born timestamp); a time still in the future also
 *                              sets TIMER_DELIVER_MS, which makes the broker hold the message until then
 *  JMSReplyTo, JMSDestination  JMSReplyTo, JMSDestination as queue://, topic://, temp-queue://, temp-topic:// URIs
 *  JMSRedelivered              not stored: deliveryCount &gt; 1 on receipt
 *  JMSXDeliveryCount           not stored: the delivery count passed to fromWharf
 *  JMSXGroupID, JMSXGroupSeq   properties of those names
 *  application properties      name = string form; types of non-String ones in WHARF_PROPERTY_TYPES (name:T,...)
 *  body type                   JMS_Wharf_BodyType = text | bytes | map | stream | object | message
 *  body                        text: UTF-8 (null text: empty body + JMS_Wharf_NullBody=true); bytes: as is;
 *                              map, stream: TypedBodyDescriptor layout; object: Java serialization
 * </pre>
 * String values are encoded as {@link WireProperties} describes so that they never contain the store's separators.
 * A message without {@code JMS_Wharf_BodyType} (sent by a plain Wharf client) is received as a bytes message whose
 * properties are String properties.
 *
 * <p>Thread-safe: it holds only immutable settings.
 */
public final class JmsMessageCodec {

    /**
     * Bytes of the stored properties kept free for what the client and broker add after this codec (unique id,
     * producer group, transaction, retry bookkeeping).
     */
    static final int SYSTEM_PROPERTY_HEADROOM = 1024;
    /** Largest encoded size of the properties this codec writes. */
    public static final int MAX_PROPERTIES_BYTES = MessageRecord.MAX_PROPERTIES_LENGTH - SYSTEM_PROPERTY_HEADROOM;

    private static final String ID_PREFIX = "ID:";

    private final DeserializationPolicy policy;
    private final Clock clock;

    /**
     * @param policy what received object messages may deserialize
     * @param clock  decides whether a delivery time is still in the future
     */
    public JmsMessageCodec(DeserializationPolicy policy, Clock clock) {
        this.policy = Objects.requireNonNull(policy, "policy");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    public JmsMessageCodec(DeserializationPolicy policy) {
        this(policy, Clock.systemUTC());
    }

    public DeserializationPolicy policy() {
        return policy;
    }

    /**
     * A Wharf message with the content of {@code message}: the message itself when it is one, otherwise a copy
     * (a message of another provider).
     */
    public WharfMessage adopt(jakarta.jms.Message message) throws JMSException {
        Objects.requireNonNull(message, "message");
        return message instanceof WharfMessage w ? w : ForeignMessages.copy(message, policy);
    }

    /**
     * Converts a message for sending. The headers the send sets ({@code JMSMessageID}, {@code JMSDestination},
     * {@code JMSDeliveryMode}, {@code JMSPriority}, {@code JMSExpiration}, {@code JMSDeliveryTime}) must already be
     * set on {@code message}; {@code JMSTimestamp} travels as set, and a
     * selector reads the record's born timestamp for it (taken by the client a moment later).
     *
     * @param message any provider's message
     * @param topic   the broker topic to send to
     * @throws InvalidDestinationException when the topic or a destination header cannot be used
     * @throws MessageFormatException      when the message cannot be encoded (e.g. its properties are too large)
     */
    public Message toWharf(jakarta.jms.Message message, String topic) throws JMSException {
        String topicProblem = TopicValidator.check(topic);
        if (topicProblem != null) {
            throw new InvalidDestinationException(topicProblem);
        }
        WharfMessage m = adopt(message);
        Map<String, String> p = new HashMap<>();
        StringBuilder types = new StringBuilder();

        String id = m.getJMSMessageID();
        if (id != null) {
            String unique = id.startsWith(ID_PREFIX) ? id.substring(ID_PREFIX.length()) : id;
            if (unique.isEmpty() || !unique.equals(WireProperties.escape(unique))) {
                throw new MessageFormatException("The message id \"" + id + "\" is empty or contains control"
                        + " characters; message ids are assigned by the producer.");
            }
            p.put(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID, unique);
        }
        if (m.getJMSType() != null) {
            p.put(MessageProperties.TAGS, WireProperties.escape(m.getJMSType()));
        }
        p.put(WireProperties.DELIVERY_MODE, WharfMessage.deliveryModeName(m.getJMSDeliveryMode()));
        if (m.getJMSDeliveryMode() == DeliveryMode.NON_PERSISTENT) {
            p.put(MessageProperties.WAIT_STORE_MSG_OK, "false");
        }
        p.put(WireProperties.PRIORITY, Integer.toString(m.getJMSPriority()));
        types.append(WireProperties.PRIORITY).append(":I");
        if (m.getJMSCorrelationID() != null) {
            p.put(WireProperties.CORRELATION_ID, WireProperties.escape(m.getJMSCorrelationID()));
            if (m.hasCorrelationIdBytes()) {
                p.put(WireProperties.CORRELATION_ID_BYTES,
                        Base64.getEncoder().encodeToString(m.getJMSCorrelationIDAsBytes()));
            }
        }
        if (m.getJMSExpiration() != 0) {
            p.put(WireProperties.EXPIRATION, Long.toString(m.getJMSExpiration()));
        }
        p.put(WireProperties.TIMESTAMP, Long.toString(m.getJMSTimestamp()));
        long deliveryTime = m.getJMSDeliveryTime();
        if (deliveryTime != 0) {
            p.put(WireProperties.DELIVERY_TIME, Long.toString(deliveryTime));
            if (deliveryTime > clock.millis()) {
                p.put(MessageProperties.DELIVER_TIME_MS, Long.toString(deliveryTime));
            }
        }
        if (m.getJMSReplyTo() != null) {
            p.put(WireProperties.REPLY_TO, Destinations.toUri(m.getJMSReplyTo()));
        }
        if (m.getJMSDestination() != null) {
            p.put(WireProperties.DESTINATION, Destinations.toUri(m.getJMSDestination()));
        }

        for (Map.Entry<String, Object> e : m.properties().entrySet()) {
            Object value = e.getValue();
            if (value == null || PropertyNames.JMSX_DELIVERY_COUNT.equals(e.getKey())) {
                continue;
            }
            char type = WireProperties.typeCode(value);
            if (type == 0) {
                p.put(e.getKey(), WireProperties.escape((String) value));
            } else {
                p.put(e.getKey(), value.toString());
                types.append(',').append(e.getKey()).append(':').append(type);
            }
        }
        p.put(WireProperties.PROPERTY_TYPES, types.toString());

        BodyType bodyType = m.bodyType();
        p.put(WireProperties.BODY_TYPE, bodyType.wireName());
        byte[] body = m.encodeBody();
        if (body == null) {
            if (bodyType == BodyType.TEXT || bodyType == BodyType.OBJECT) {
                p.put(WireProperties.NULL_BODY, "true");
            }
            body = new byte[0];
        }
        checkSize(p);

        Message out = new Message(topic, body);
        out.setProperties(p);
        return out;
    }

    private static void checkSize(Map<String, String> p) throws MessageFormatException {
        String problem = MessageDecoder.checkProperties(p);
        if (problem != null) {
            throw new MessageFormatException(problem);
        }
        long bytes = 0;
        for (Map.Entry<String, String> e : p.entrySet()) {
            bytes += utf8Length(e.getKey()) + utf8Length(e.getValue()) + 2;
        }
        if (bytes > MAX_PROPERTIES_BYTES) {
            throw new MessageFormatException("The headers and properties of this message take " + bytes
                    + " bytes, more than the " + MAX_PROPERTIES_BYTES + " a message can carry; move large values"
                    + " into the body.");
        }
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    /**
     * Converts a received broker message into the JMS message the application sees: properties and body
     * read-only, {@code JMSRedelivered} and {@code JMSXDeliveryCount} from {@code deliveryCount}.
     *
     * @param ext           the received message
     * @param deliveryCount how often this message has been delivered, this delivery included (1 = first time)
     * @param consumedFrom  the destination the consumer reads, used as {@code JMSDestination} when the sender
     *                      did not store one (a plain Wharf client); may be null
     * @param acknowledger  what {@link jakarta.jms.Message#acknowledge()} calls; null for a no-op
     * @throws IllegalArgumentException when {@code deliveryCount} is less than 1
     */
    public WharfMessage fromWharf(MessageExt ext, int deliveryCount, Destination consumedFrom,
                                  MessageAcknowledger acknowledger) throws JMSException {
        if (deliveryCount < 1) {
            throw new IllegalArgumentException("deliveryCount is " + deliveryCount
                    + "; the first delivery of a message counts as 1.");
        }
        Map<String, String> p = ext.getProperties();
        BodyType bodyType = BodyType.ofWireName(p.get(WireProperties.BODY_TYPE));
        WharfMessage m = create(bodyType == null ? BodyType.BYTES : bodyType);
        byte[] body = ext.getBody();
        m.decodeBody("true".equals(p.get(WireProperties.NULL_BODY)) ? null : (body == null ? new byte[0] : body));

        m.setJMSMessageID(ID_PREFIX + ext.getMsgId());
        m.setJMSTimestamp(parseLong(p.get(WireProperties.TIMESTAMP), ext.getBornTimestamp()));
        m.setJMSType(WireProperties.unescape(p.get(MessageProperties.TAGS)));
        m.setJMSDeliveryMode(WireProperties.NON_PERSISTENT.equals(p.get(WireProperties.DELIVERY_MODE))
                ? DeliveryMode.NON_PERSISTENT : DeliveryMode.PERSISTENT);
        m.setJMSPriority((int) parseLong(p.get(WireProperties.PRIORITY), jakarta.jms.Message.DEFAULT_PRIORITY));
        String bytesId = p.get(WireProperties.CORRELATION_ID_BYTES);
        byte[] correlationBytes = bytesId == null ? null : base64(bytesId);
        if (correlationBytes != null) {
            m.setJMSCorrelationIDAsBytes(correlationBytes);
        } else {
            m.setJMSCorrelationID(WireProperties.unescape(p.get(WireProperties.CORRELATION_ID)));
        }
        m.setJMSExpiration(parseLong(p.get(WireProperties.EXPIRATION), 0));
        m.setJMSDeliveryTime(parseLong(p.get(WireProperties.DELIVERY_TIME), ext.getBornTimestamp()));
        m.setJMSReplyTo(destination(p.get(WireProperties.REPLY_TO)));
        WharfDestination stored = destination(p.get(WireProperties.DESTINATION));
        m.setJMSDestination(stored != null ? stored : consumedFrom);
        m.setJMSRedelivered(deliveryCount > 1);

        Map<String, Character> types = WireProperties.parseTypes(p.get(WireProperties.PROPERTY_TYPES));
        Map<String, Object> properties = m.properties();
        for (Map.Entry<String, String> e : p.entrySet()) {
            String name = e.getKey();
            if (PropertyNames.isInternal(name) || PropertyNames.JMSX_DELIVERY_COUNT.equals(name)) {
                continue;
            }
            Character type = types.get(name);
            properties.put(name, type == null ? WireProperties.unescape(e.getValue())
                    : WireProperties.parse(type, e.getValue()));
        }
        properties.put(PropertyNames.JMSX_DELIVERY_COUNT, deliveryCount);
        m.markReceived();
        m.setAcknowledger(acknowledger);
        return m;
    }

    private WharfMessage create(BodyType type) {
        return switch (type) {
            case MESSAGE -> new WharfMessage();
            case TEXT -> new WharfTextMessage();
            case BYTES -> new WharfBytesMessage();
            case MAP -> new WharfMapMessage();
            case STREAM -> new WharfStreamMessage();
            case OBJECT -> new WharfObjectMessage(policy);
        };
    }

    /** A stored destination URI, or null when absent or not understood (the message is still delivered). */
    private static WharfDestination destination(String uri) {
        if (uri == null) {
            return null;
        }
        try {
            return Destinations.fromUri(uri);
        } catch (InvalidDestinationException e) {
            return null;
        }
    }

    private static long parseLong(String s, long absent) {
        if (s == null) {
            return absent;
        }
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            return absent;
        }
    }

    private static byte[] base64(String s) {
        try {
            return Base64.getDecoder().decode(s);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
