package dev.wharf.broker.filter;

import dev.wharf.common.message.MessageDecoder;
import dev.wharf.common.message.MessageProperties;
import dev.wharf.common.message.MessageRecord;
import dev.wharf.filter.PropertySource;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The selector's view of one stored record. JMS header identifiers map to record fields or to the properties
 * the JMS provider stores them in:
 * <ul>
 * <li>{@code JMSType}: the TAGS property;</li>
 * <li>{@code JMSMessageID}: "ID:" + the UNIQ_KEY property;</li>
 * <li>{@code JMSTimestamp}: the record's BORNTIMESTAMP (Long);</li>
 * <li>{@code JMSDeliveryMode}: property "JMSDeliveryMode", default "PERSISTENT";</li>
 * <li>{@code JMSPriority}: property "JMSPriority" as an Integer, default 4;</li>
 * <li>{@code JMSCorrelationID}: property "JMSCorrelationID";</li>
 * <li>{@code JMSXDeliveryCount}: RECONSUMETIMES + 1 (Integer), or the count given to
 * {@link #reset(ByteBuffer, int)} where the broker tracks deliveries itself (acknowledgement-based
 * consumption).</li>
 * </ul>
 * Any other name is the property of that name, typed by {@code WHARF_PROPERTY_TYPES}.
 *
 * <p>The properties are decoded only when a name is first asked for, once per record. One instance is reused
 * for the records of one read ({@link #reset}); not thread-safe.
 */
public final class RecordPropertySource implements PropertySource {

    /** Set on every message the JMS provider sends; marks a message whose properties are typed. */
    private static final String JMS_BODY_TYPE = "JMS_Wharf_BodyType";

    public static final String JMS_TYPE = "JMSType";
    public static final String JMS_MESSAGE_ID = "JMSMessageID";
    public static final String JMS_TIMESTAMP = "JMSTimestamp";
    public static final String JMS_DELIVERY_MODE = "JMSDeliveryMode";
    public static final String JMS_PRIORITY = "JMSPriority";
    public static final String JMS_CORRELATION_ID = "JMSCorrelationID";
    public static final String JMSX_DELIVERY_COUNT = "JMSXDeliveryCount";
    public static final String DEFAULT_DELIVERY_MODE = "PERSISTENT";
    public static final int DEFAULT_PRIORITY = 4;

    private ByteBuffer record;
    private int base;
    private String properties;
    private String types;
    private boolean typesRead;
    /** The delivery count to report, or 0 to derive it from the record. */
    private int deliveryCount;

    /** Points this source at another record (whole record from its position). */
    public RecordPropertySource reset(ByteBuffer record) {
        return reset(record, 0);
    }

    /**
     * Points this source at another record whose delivery count the caller knows.
     *
     * @param deliveryCount the JMSXDeliveryCount to report (1 = first delivery), or 0 for RECONSUMETIMES + 1
     */
    public RecordPropertySource reset(ByteBuffer record, int deliveryCount) {
        this.deliveryCount = deliveryCount;
        this.record = record;
        this.base = record.position();
        this.properties = null;
        this.types = null;
        this.typesRead = false;
        return this;
    }

    @Override
    public Object get(String name) {
        switch (name) {
            case JMS_TYPE:
                return property(MessageProperties.TAGS);
            case JMS_MESSAGE_ID: {
                String unique = property(MessageProperties.UNIQUE_CLIENT_MESSAGE_ID);
                return unique == null ? null : "ID:" + unique;
            }
            case JMS_TIMESTAMP:
                return record.getLong(base + MessageRecord.BORN_TIMESTAMP_OFFSET);
            case JMS_DELIVERY_MODE: {
                String mode = property(JMS_DELIVERY_MODE);
                return mode == null ? DEFAULT_DELIVERY_MODE : mode;
            }
            case JMS_PRIORITY: {
                String priority = property(JMS_PRIORITY);
                return priority == null ? Integer.valueOf(DEFAULT_PRIORITY) : PropertyTypes.convert('I', priority.trim());
            }
            case JMS_CORRELATION_ID:
                return property(JMS_CORRELATION_ID);
            case JMSX_DELIVERY_COUNT:
                return deliveryCount > 0 ? deliveryCount
                        : record.getInt(base + MessageRecord.RECONSUME_TIMES_OFFSET) + 1;
            default: {
                String raw = property(name);
                if (raw == null) {
                    return null;
                }
                char type = PropertyTypes.typeOf(types(), name);
                return type == 0 ? raw : PropertyTypes.convert(type, raw);
            }
        }
    }

    /**
     * Messages of the low-level client carry untyped text properties (RocketMQ's model), so a selector such as
     * {@code amount > 100} reads {@code "250"} as a number there. Messages of the JMS provider carry their property
     * types (and always their body type), and keep the specification's strict typing.
     */
    @Override
    public boolean numericText() {
        return types() == null && property(JMS_BODY_TYPE) == null;
    }

    private String types() {
        if (!typesRead) {
            types = property(MessageProperties.PROPERTY_TYPES);
            typesRead = true;
        }
        return types;
    }

    private String property(String key) {
        return MessageDecoder.findProperty(properties(), key);
    }

    /** The encoded properties string of the record; empty when the record is malformed. */
    private String properties() {
        if (properties == null) {
            properties = decodeProperties();
        }
        return properties;
    }

    private String decodeProperties() {
        int limit = record.limit();
        int bodyLengthAt = base + MessageRecord.BODY_LENGTH_OFFSET;
        if (bodyLengthAt + 4 > limit) {
            return "";
        }
        int bodyLength = record.getInt(bodyLengthAt);
        int topicLengthAt = base + MessageRecord.topicLengthOffset(bodyLength);
        if (bodyLength < 0 || topicLengthAt + 1 > limit) {
            return "";
        }
        int topicLength = record.get(topicLengthAt) & 0xFF;
        int propsLengthAt = base + MessageRecord.propertiesLengthOffset(bodyLength, topicLength);
        if (propsLengthAt + 2 > limit) {
            return "";
        }
        int propsLength = record.getShort(propsLengthAt) & 0xFFFF;
        if (propsLengthAt + 2 + propsLength > limit) {
            return "";
        }
        byte[] bytes = new byte[propsLength];
        record.get(propsLengthAt + 2, bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
